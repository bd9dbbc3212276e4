"""Throwaway TLS material, made with the openssl CLI at test time: a CA, and server certificates
it signs (for 127.0.0.1, for another host, already expired).

Why a CA and not one self-signed certificate: a client that trusts the CA and checks the host
name is what a real deployment has, and only then do "wrong host" and "expired" mean anything.
`openssl ca` (not `openssl x509 -req`) because OpenSSL 3.0, Debian 12's, can set a start date in
the past only there.
"""
import base64
import hashlib
import subprocess
from dataclasses import dataclass
from pathlib import Path

_CA_CONFIG = """\
[ca]
default_ca = test_ca
[test_ca]
dir = {dir}
database = {dir}/index.txt
new_certs_dir = {dir}/issued
serial = {dir}/serial
default_md = sha256
policy = any_name
copy_extensions = copy
unique_subject = no
[any_name]
commonName = supplied
[server]
basicConstraints = critical, CA:false
keyUsage = critical, digitalSignature, keyEncipherment
extendedKeyUsage = serverAuth
"""


def _openssl(*args, cwd=None) -> bytes:
    done = subprocess.run(["openssl", *args], check=True, capture_output=True, cwd=cwd)
    return done.stdout


@dataclass
class Issued:
    cert: Path
    key: Path


class ThrowawayCA:
    """A CA in `folder`; `issue` signs server certificates with it."""

    def __init__(self, folder: Path):
        self.dir = Path(folder)
        (self.dir / "issued").mkdir(parents=True, exist_ok=True)
        (self.dir / "index.txt").write_text("")
        (self.dir / "serial").write_text("1000\n")
        self.config = self.dir / "ca.cnf"
        self.config.write_text(_CA_CONFIG.format(dir=self.dir))
        self.cert, self.key = self.dir / "ca.pem", self.dir / "ca.key"
        _openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                 "-days", "2", "-subj", "/CN=live-draw test CA", "-keyout", str(self.key), "-out", str(self.cert),
                 "-addext", "basicConstraints=critical,CA:true", "-addext", "keyUsage=critical,keyCertSign,cRLSign")

    def issue(self, name: str, san: str = "IP:127.0.0.1,DNS:localhost", expired: bool = False) -> Issued:
        """A key and a certificate for `san`, signed by this CA; `expired`: valid only in 2020."""
        key, csr, cert = (self.dir / f"{name}.key", self.dir / f"{name}.csr", self.dir / f"{name}.pem")
        _openssl("req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                 "-subj", f"/CN={name}", "-addext", f"subjectAltName={san}", "-keyout", str(key), "-out", str(csr))
        dates = ["-startdate", "20200101000000Z", "-enddate", "20200201000000Z"] if expired else ["-days", "2"]
        _openssl("ca", "-batch", "-notext", "-config", str(self.config), "-extensions", "server",
                 "-cert", str(self.cert), "-keyfile", str(self.key), "-in", str(csr), "-out", str(cert), *dates)
        return Issued(cert, key)


def spki_sha256_base64(cert: Path) -> str:
    """The base64 SHA-256 of the certificate's public key (SubjectPublicKeyInfo, DER): what
    Chromium's --ignore-certificate-errors-spki-list takes, to trust exactly this key."""
    pem = _openssl("x509", "-in", str(cert), "-pubkey", "-noout")
    der = subprocess.run(["openssl", "pkey", "-pubin", "-outform", "DER"], input=pem, check=True,
                         capture_output=True).stdout
    return base64.b64encode(hashlib.sha256(der).digest()).decode("ascii")
