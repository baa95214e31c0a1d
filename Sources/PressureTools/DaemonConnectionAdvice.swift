import Glibc
import PressureClient

/// What a tool that talks to the running daemon says when that fails: the error, then what to do next.
enum DaemonConnectionAdvice {
    /// The error and what to do about it; `request` names the request that was refused, if one was.
    static func explain(_ error: PressuredClientError, path: String, request: String) -> String {
        switch error {
        case .cannotConnect(_, let e) where e == ENOENT || e == ECONNREFUSED:
            return "\(error); is pressured running? (`systemctl status pressured`; for another socket give --socket PATH or set PRESSURED_SOCKET)"
        case .cannotConnect(_, let e) where e == EACCES || e == EPERM:
            return "\(error); join the socket's group (pressured --group) or run as root"
        case .daemon(let code, let message, _) where code == ProtocolError.Code.notPermitted.rawValue:
            return "the daemon refused: \(message); \(request) is for root and the control group (ControlGroup in /etc/pressured/pressured.conf): join it or use sudo"
        case .daemon(let code, let message, _) where code == ProtocolError.Code.reloadFailed.rawValue:
            return "the daemon kept its old configuration: \(message); fix the file and run `pressurectl reload` again"
        case .daemon(let code, let message, _) where code == ProtocolError.Code.tooManyClients.rawValue:
            return "the daemon turned this connection away: \(message) (the journal, `journalctl -u pressured`, "
                + "says who connects; MaxClients in /etc/pressured/pressured.conf sets the cap)"
        default:
            return "\(error)"
        }
    }
}
