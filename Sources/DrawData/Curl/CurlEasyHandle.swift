import CCurl
import CCurlShim

/// Owns one curl easy handle: `curl_easy_init` in `init`, `curl_easy_cleanup` in `deinit`, and
/// nowhere else.
///
/// Threading rule: libcurl forbids using one easy handle from two threads at once. This type is
/// deliberately not `Sendable`; each handle is created, driven and dropped on the `CurlMulti`
/// thread, inside its `CurlTransfer`, so it never leaves that thread.
final class CurlEasyHandle {
    /// `curl_global_init` must run once before the first handle, and is not guaranteed
    /// thread-safe on every libcurl build. A `static let` is initialised exactly once, under a
    /// lock, on first access, which gives both properties for free.
    private static let globalInitResult: CURLcode = ldcurl_global_init()

    /// Whether libcurl initialised (done on first use).
    static var globalInitSucceeded: Bool { globalInitResult == CURLE_OK }

    let raw: UnsafeMutableRawPointer
    /// curl writes its human-readable failure detail here (CURLOPT_ERRORBUFFER); it must stay
    /// allocated as long as the handle, so the handle owns it.
    private let errorBuffer: UnsafeMutablePointer<CChar>

    /// `nil` when libcurl cannot initialise or allocate a handle (out of memory, broken TLS
    /// library).
    init?() {
        guard Self.globalInitResult == CURLE_OK, let raw = curl_easy_init() else { return nil }
        self.raw = raw
        let size = Int(CURL_ERROR_SIZE)
        errorBuffer = .allocate(capacity: size)
        errorBuffer.initialize(repeating: 0, count: size)
        _ = ldcurl_setopt_pointer(raw, CURLOPT_ERRORBUFFER, errorBuffer)
    }

    deinit {
        curl_easy_cleanup(raw)
        errorBuffer.deallocate()
    }

    func set(_ option: CURLoption, _ value: Int) -> CURLcode {
        ldcurl_setopt_long(raw, option, value)
    }

    func set(_ option: CURLoption, _ value: String) -> CURLcode {
        ldcurl_setopt_string(raw, option, value)
    }

    func set(_ option: CURLoption, offT value: Int64) -> CURLcode {
        ldcurl_setopt_off_t(raw, option, curl_off_t(value))
    }

    func set(_ option: CURLoption, pointer value: UnsafeMutableRawPointer) -> CURLcode {
        ldcurl_setopt_pointer(raw, option, value)
    }

    func setWriteCallback(_ callback: ldcurl_write_callback) -> CURLcode {
        ldcurl_setopt_write_callback(raw, callback)
    }

    /// A `long` info, or 0 when curl does not have it.
    func info(_ info: CURLINFO) -> Int {
        var value = 0
        return ldcurl_getinfo_long(raw, info, &value) == CURLE_OK ? value : 0
    }

    /// A string info (REDIRECT_URL), copied; `nil` when curl does not have it.
    func info(string info: CURLINFO) -> String? {
        var value: UnsafePointer<CChar>?
        guard ldcurl_getinfo_string(raw, info, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }

    /// Clears the failure detail of the previous request, before the handle makes another.
    func clearErrorMessage() {
        errorBuffer[0] = 0
    }

    /// curl's detail for the last failure (e.g. "Could not resolve host: x"), or its generic text
    /// for `code` when it left none.
    func errorMessage(for code: CURLcode) -> String {
        let detail = String(cString: errorBuffer)
        return detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
    }
}
