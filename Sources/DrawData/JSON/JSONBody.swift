import DrawCore
import Foundation

/// Decodes a response body into a DTO, turning every decoder failure into the
/// `DataSourceError` that says what is wrong and where.
enum JSONBody {
    /// - Throws: `malformedJSON` when the body is not JSON at all (the detail gives the parser's
    ///   message with its position); `invalidData` when it is JSON of the wrong shape (the detail
    ///   names the field, e.g. `items[2].username is missing`).
    static func decode<T: Decodable>(_ type: T.Type, from body: Data, source: String) throws(DataSourceError) -> T {
        do {
            return try JSONDecoder().decode(type, from: body)
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
                throw .malformedJSON(source: source, detail: syntaxDetail(body) ?? context.debugDescription)
            }
            throw .invalidData(source: source, detail: error.fieldDetail)
        } catch {
            throw .malformedJSON(source: source, detail: String(describing: error))
        }
    }

    /// Where the JSON syntax breaks, e.g. "Invalid value around character 14.", or `nil` if the
    /// body parses.
    ///
    /// Why a second parser: on Linux, `JSONDecoder` only says "The given data was not valid JSON"
    /// without a position, while `JSONSerialization` names the byte offset. It only runs for a
    /// body that already failed, so the happy path parses once.
    private static func syntaxDetail(_ body: Data) -> String? {
        do {
            _ = try JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
            return nil
        } catch {
            let nsError = error as NSError
            let text = nsError.userInfo[NSDebugDescriptionErrorKey] as? String ?? nsError.localizedDescription
            return text.hasSuffix(".") ? String(text.dropLast()) : text
        }
    }
}
