/// A QR code's modules as an SVG image: one dark path on a light square, a quiet zone of four
/// modules around it (as ISO/IEC 18004 asks, so scanners find the edges), and crisp edges so
/// no anti-aliasing blurs the modules. Pure: the modules come from the encoder.
public enum QRCodeSVG {
    /// Modules of quiet zone on each side.
    public static let quietZone = 4

    /// `modules` is `width × width` values, row by row, nonzero for dark.
    public static func render(width: Int, modules: [UInt8]) -> String {
        precondition(width > 0 && modules.count == width * width, "modules must be width × width")
        let side = width + 2 * quietZone
        var path = ""
        path.reserveCapacity(width * width * 4)
        for y in 0..<width {
            var x = 0
            while x < width {
                guard modules[y * width + x] != 0 else { x += 1; continue }
                // One rectangle per horizontal run of dark modules keeps the file small.
                var run = 1
                while x + run < width, modules[y * width + x + run] != 0 { run += 1 }
                path += "M\(x + quietZone) \(y + quietZone)h\(run)v1h-\(run)z"
                x += run
            }
        }
        return ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \##(side) \##(side)" shape-rendering="crispEdges">"##
            + ##"<rect width="\##(side)" height="\##(side)" fill="#fff"/><path fill="#000" d="\##(path)"/></svg>"##
    }
}
