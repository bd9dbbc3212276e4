import CQRShim
import DrawPresentation

/// A QR code of a text (a room's viewer link), encoded by libqrencode through `CQRShim`.
enum QRCode {
    /// The SVG of `text`'s QR code (error correction M, which survives a screen's glare and a
    /// phone's angle), or `nil` when the text is too long for any QR version.
    static func svg(_ text: String) -> String? {
        var modules = [UInt8](repeating: 0, count: Int(LDQR_MAX_WIDTH) * Int(LDQR_MAX_WIDTH))
        let width = modules.withUnsafeMutableBufferPointer { buffer in
            ldqr_encode(text, LDQR_LEVEL_M, buffer.baseAddress, buffer.count)
        }
        guard width > 0 else { return nil }
        return QRCodeSVG.render(width: Int(width), modules: Array(modules.prefix(Int(width) * Int(width))))
    }
}
