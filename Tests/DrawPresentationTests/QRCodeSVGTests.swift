@testable import DrawPresentation
import Testing

struct QRCodeSVGTests {
    /// A 2 × 2 code: runs of dark modules become one rectangle each, shifted by the quiet zone.
    @Test func drawsRunsOfDarkModulesInsideAQuietZone() {
        let svg = QRCodeSVG.render(width: 2, modules: [1, 1, 0, 1])
        #expect(svg.contains(#"viewBox="0 0 10 10""#))
        #expect(svg.contains(#"d="M4 4h2v1h-2zM5 5h1v1h-1z""#))
        #expect(svg.contains(##"<rect width="10" height="10" fill="#fff"/>"##))
    }
}
