import PressureCore

/// What a text log's header builder made of one line (``EvtestHeader``, ``GeteventHeader``).
enum HeaderLine: Equatable {
    /// The line belongs to the header and was taken in.
    case taken
    /// Not a header line: the reader decides what it is (an event, or text to skip).
    case notHeader
    /// It begins like a header line and does not go on as one should; what was expected.
    case malformed(String)
}
