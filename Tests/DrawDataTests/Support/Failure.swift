import DrawCore
import Testing

/// The `DataSourceError` an operation throws, or `nil` if it succeeds.
///
/// Takes an untyped closure because closures do not infer typed throws yet; the APIs under test
/// are `throws(DataSourceError)`, so any other error is a test failure.
func failure<T>(_ operation: () async throws -> T) async -> DataSourceError? {
    do {
        _ = try await operation()
        return nil
    } catch let error as DataSourceError {
        return error
    } catch {
        Issue.record("expected a DataSourceError, got \(error)")
        return nil
    }
}

/// The reason of an `unreachable` error, or `nil` for anything else.
func unreachableReason(_ error: DataSourceError?) -> String? {
    if case .unreachable(_, let reason)? = error { return reason }
    return nil
}
