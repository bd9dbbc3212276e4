"""The share card (issue 16): the room's link, and its QR code drawn by the server with
libqrencode, which a real decoder (zbar's zbarimg) reads back as that link."""
import subprocess

from helpers.http import created_room

from .browser_harness.paths import ARTIFACTS

QR_LOADED = "const img = arguments[0]; return img.complete && img.naturalWidth > 0"


def test_the_qr_code_decodes_to_the_viewer_link(server, open_page, tmp_path):
    room = created_room(server)
    page = open_page(room["room"])
    link = f"{server.base_url}/?room={room['room']}"
    assert page.el("share-link").get_attribute("value") == link
    qr = page.el("share-qr")
    page.wait(lambda d: d.execute_script(QR_LOADED, qr), "the QR code to load")
    shot = tmp_path / "qr.png"
    shot.write_bytes(qr.screenshot_as_png)  # as Chromium rendered the SVG
    (ARTIFACTS / "screenshots").mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "screenshots" / "share-qr.png").write_bytes(shot.read_bytes())
    decoded = subprocess.run(["zbarimg", "--raw", "-q", str(shot)], capture_output=True, text=True, timeout=30)
    assert decoded.returncode == 0, decoded.stderr
    assert decoded.stdout.strip() == link


def test_viewers_see_the_share_card_but_not_on_an_unknown_room(server, open_page):
    page = open_page()
    assert page.visible("share")
    page.driver.get(f"{server.base_url}/?room=no-such-room-here")
    page.wait_phase("unknown-room")
    assert not page.visible("share")
