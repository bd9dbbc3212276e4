"""The page over https: a server with a certificate from a throwaway CA (made with openssl at
test time, Tests/e2e/helpers/certs.py), and a Chromium that trusts exactly that certificate's key
(--ignore-certificate-errors-spki-list with its SPKI hash), so nothing else about certificate
checking is switched off. The page must take wss from the https origin and run a whole draw."""
from helpers.certs import ThrowawayCA, spki_sha256_base64

from .browser_harness.pages import DrawPage, new_driver


def test_the_page_runs_a_draw_over_https_and_wss(server_factory, tmp_path):
    issued = ThrowawayCA(tmp_path / "ca").issue("server")
    srv = server_factory(tls_cert=str(issued.cert), tls_key=str(issued.key))
    assert srv.base_url.startswith("https://")
    driver = new_driver(extra_args=[f"--ignore-certificate-errors-spki-list={spki_sha256_base64(issued.cert)}"])
    try:
        page = DrawPage(driver, srv.base_url).open("lobby", srv.lobby_key)
        assert driver.execute_script("return location.protocol + ' ' + window.isSecureContext") == "https: true"
        page.el("start-button").click()
        page.wait_phase("result")
        assert page.text("winner-name")
        assert page.severe_console_errors() == []
    finally:
        driver.quit()


def test_chromium_refuses_the_certificate_it_was_not_told_to_trust(server_factory, tmp_path):
    """The flag trusts one key, not every certificate: another server's is still refused."""
    ca = ThrowawayCA(tmp_path / "ca")
    trusted, other = ca.issue("trusted"), ca.issue("other")
    srv = server_factory(tls_cert=str(other.cert), tls_key=str(other.key))
    driver = new_driver(extra_args=[f"--ignore-certificate-errors-spki-list={spki_sha256_base64(trusted.cert)}"])
    try:
        driver.get(f"{srv.base_url}/?room=lobby")
        assert driver.execute_script("return document.querySelector('[data-testid=\"stage\"]') === null")
    finally:
        driver.quit()
