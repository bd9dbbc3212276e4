/// The request methods the server tells apart.
package enum HTTPMethod: Hashable {
    case get, post, put, patch, delete, options, head, other
}
