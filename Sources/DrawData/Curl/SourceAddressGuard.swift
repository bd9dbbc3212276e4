import CCurl
import CCurlShim

/// Refuses, at connect time, the addresses a `SourceRestriction` forbids: installed as the
/// transfer's CURLOPT_OPENSOCKETFUNCTION, so it judges the very address curl connects to, for
/// the URL and for every redirect, whatever DNS answered earlier (see `ldcurl_shim.h`).
///
/// Not `Sendable`: it lives in one `CurlTransfer`, and curl calls it on the `CurlMulti` thread.
final class SourceAddressGuard {
    let restriction: SourceRestriction
    /// The first address refused, with its range, for the error the host sees.
    private(set) var refused: (address: IPAddress, range: AddressRange)?

    init(restriction: SourceRestriction) {
        self.restriction = restriction
    }

    /// Installs the hook on `handle`; the guard must outlive the handle's transfers.
    func install(on handle: CurlEasyHandle) -> CURLcode {
        ldcurl_setopt_opensocket_callback(handle.raw, Self.openSocket, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Whether a connection to `address` may be opened (remembering the first refusal).
    func admits(_ address: IPAddress) -> Bool {
        guard let range = restriction.refusedRange(of: address) else { return true }
        if refused == nil { refused = (address, range) }
        return false
    }

    /// CURLOPT_OPENSOCKETFUNCTION. An address of another family than IPv4 or IPv6 is refused.
    static let openSocket: ldcurl_opensocket_callback = { clientp, _, address in
        guard let clientp, let address else { return ldcurl_socket_bad() }
        let guardian = Unmanaged<SourceAddressGuard>.fromOpaque(clientp).takeUnretainedValue()
        var bytes = [UInt8](repeating: 0, count: 16)
        let count = Int(ldcurl_sockaddr_ip(address, &bytes))
        guard let ip = IPAddress(bytes: Array(bytes.prefix(count))), guardian.admits(ip) else { return ldcurl_socket_bad() }
        return ldcurl_open_socket(address)
    }
}
