import DrawCore

extension ClientErrorCode {
    /// The code of a refused entrant list: one per limit and rule, the same strings as
    /// `EntrantListError.code`, so a client tells the limits apart by `code` alone.
    public init(listError: EntrantListError) {
        switch listError {
        case .bodyTooLarge: self = .listTooLarge
        case .notUTF8: self = .listNotUTF8
        case .tooManyEntrants: self = .tooManyEntrants
        case .nameTooLong: self = .nameTooLong
        case .nameTooManyBytes: self = .nameTooManyBytes
        case .noEntrants: self = .noEntrants
        case .malformedJSON: self = .listMalformedJSON
        case .invalidData: self = .listInvalidData
        }
    }
}

extension ClientErrorCode {
    /// The code of list URLs a room may not have (`RoomURLSources.refusal(of:)`).
    public init(sourceRefusal reason: RoomSourceRefusal.Reason) {
        switch reason {
        case .off: self = .sourceURLsOff
        case .invalidURL: self = .sourceURLInvalid
        case .hostNotAllowed: self = .sourceHostNotAllowed
        case .internalAddress: self = .sourceAddressRefused
        }
    }
}
