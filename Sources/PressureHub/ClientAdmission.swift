import PressureCore

/// Who may connect: the client cap (`MaxClients`, ``Configuration/maximumClients``). The loop asks before
/// it hands the hub a newcomer; one turned away gets an error instead of `hello` and is closed, and the
/// clients already connected never notice. Clients being closed count until the loop has closed them:
/// they still hold a descriptor.
struct ClientAdmission {
    /// The most clients served at once.
    let maximumClients: Int

    /// Whether a newcomer may connect while `connected` clients are.
    func hasRoom(connected: Int) -> Bool { connected < maximumClients }

    /// Why a newcomer is turned away while `connected` clients are, and the line it is sent instead of
    /// `hello` (a fatal `too-many-clients` error).
    func refusal(connected n: Int) -> (why: String, line: [UInt8]) {
        let why = "\(n) client\(n == 1 ? " is" : "s are") connected, as many as MaxClients = \(maximumClients) allows"
        var line: [UInt8] = []
        ServerMessage.error(.tooManyClients(why)).append(to: &line)
        return (why, line)
    }
}
