@testable import DrawServer
import Testing

struct QRCodeTests {
    /// libqrencode through CQRShim: the smallest version that fits (a 34-byte link at level M is
    /// version 3, 29 modules a side, plus the quiet zone), and refusal of what no version holds.
    @Test func encodesALinkAndRefusesTooMuch() throws {
        let svg = try #require(QRCode.svg("http://127.0.0.1:18932/?room=lobby"))
        #expect(svg.contains(#"viewBox="0 0 37 37""#))
        #expect(QRCode.svg(String(repeating: "x", count: 4000)) == nil)
    }

    @Test(arguments: ["example.com", "127.0.0.1:8080", "[::1]:80", "live-draw.example:443"])
    func plainHosts(_ host: String) { #expect(RoomQRAPI.isPlainHost(host)) }

    @Test(arguments: ["", "a/b", "a b", "a@b", "a?b", "é.example", "a\r\nb"])
    func oddHosts(_ host: String) { #expect(!RoomQRAPI.isPlainHost(host)) }
}
