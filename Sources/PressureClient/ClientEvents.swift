/// The events of a ``PressuredConnection`` or ``PressuredClient``, in the order the daemon sent them.
///
/// Iterate it from one task at a time. It ends normally after `bye` or ``PressuredConnection/close()``,
/// and throws a ``PressuredClientError`` when the connection fails (a fatal daemon `error` included).
/// Holding it keeps its connection open.
public struct ClientEvents: AsyncSequence, Sendable {
    public typealias Element = ClientEvent
    public typealias Failure = PressuredClientError

    let stream: AsyncThrowingStream<ClientEvent, any Error>
    /// Keeps the connection (whose `deinit` closes the socket) alive while someone can still iterate.
    let owner: any Sendable

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: stream.makeAsyncIterator(), owner: owner)
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<ClientEvent, any Error>.AsyncIterator
        let owner: any Sendable

        public mutating func next() async throws(PressuredClientError) -> ClientEvent? {
            do { return try await base.next() } catch { throw PressuredClientError(error) }
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws(PressuredClientError)
            -> ClientEvent?
        {
            do { return try await base.next(isolation: actor) } catch { throw PressuredClientError(error) }
        }
    }
}
