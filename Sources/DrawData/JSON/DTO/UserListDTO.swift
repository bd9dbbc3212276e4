/// The users document exactly as the seed app serves it:
/// `{"items":[{"userId":10,"name":"Jack Alexy","username":"JAlex","regDate":"2020-10-19"}, ...]}`.
/// Fields not listed here are ignored.
struct UserListDTO: Decodable {
    let items: [UserDTO]
}

/// One element of `items`. `regDate` stays a string here; the mapper checks it is a real day.
struct UserDTO: Decodable {
    let userId: JSONInteger
    let name: String
    let username: String
    let regDate: String
}
