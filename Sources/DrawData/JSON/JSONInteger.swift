/// A JSON number that must be a whole `Int`, decoded so that a bad one is reported at its path.
///
/// Why not plain `Int`: Foundation's `JSONDecoder` (swift-foundation on Linux) reports a number
/// like `1.5` or `1e400` in an `Int` field as "The given data was not valid JSON" with no coding
/// path, which would send the host looking for a syntax error. Catching it here turns it into a
/// `DecodingError` that names the field, like every other shape error.
struct JSONInteger: Decodable {
    let value: Int

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        do {
            value = try container.decode(Int.self)
        } catch let error as DecodingError {
            throw error
        } catch {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath,
                debugDescription: "not a whole number within the integer range"))
        }
    }
}
