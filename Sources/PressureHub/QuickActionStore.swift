import PressureCore

/// Quick actions apps registered at run time (the static ones are the configuration's), and actions
/// chosen for apps that are not connected yet (a launcher is starting them). Both are bounded, so
/// connections inventing app ids cannot grow the daemon (``Hub/maximumQuickActionApps``,
/// ``Hub/maximumPendingChoices``); what goes for that is logged.
struct QuickActionStore: Sendable {
    /// A quick action chosen for an app that is not connected yet.
    struct Choice: Sendable {
        var app: String
        var action: String
        var expires: Timestamp
    }

    /// Run-time quick actions, by app id.
    private(set) var runTime: [String: [QuickActionItem]] = [:]
    /// The apps in ``runTime``, the one that set its actions longest ago first.
    private var apps: [String] = []
    /// Choices waiting for their app, oldest first.
    private(set) var choices: [Choice] = []

    var appCount: Int { runTime.count }

    /// What an app's icon shows: its static items first, then its run-time ones, then the icon's own
    /// (`own`, the launcher's: as iOS puts its own items after the app's), each id once, four at most.
    func menu(forApp app: String, statics: [QuickActionItem], own: [QuickActionItem] = []) -> [QuickActionItem] {
        Self.menu(statics + (runTime[app] ?? []) + own).shown
    }

    /// Items as a menu shows them: in order, the first item of each id, four at most
    /// (``QuickActionItem/maximumShown``); `cut`: the positions in `items` of those left out.
    static func menu(_ items: [QuickActionItem]) -> (shown: [QuickActionItem], cut: [Int]) {
        var shown: [QuickActionItem] = []
        var cut: [Int] = []
        for (i, item) in items.enumerated() {
            if shown.count < QuickActionItem.maximumShown, !shown.contains(where: { $0.id == item.id }) {
                shown.append(item)
            } else {
                cut.append(i)
            }
        }
        return (shown, cut)
    }

    /// An app's run-time quick actions (none: forgotten), keeping at most ``Hub/maximumQuickActionApps`` apps.
    mutating func set(_ items: [QuickActionItem], forApp app: String, _ work: inout Hub.Work) {
        apps.removeAll { $0 == app }
        guard !items.isEmpty else {
            runTime[app] = nil
            return
        }
        if apps.count >= Hub.maximumQuickActionApps {
            let oldest = apps.removeFirst()
            runTime[oldest] = nil
            work.notices.append(.clientWarning("forgot the quick actions of \(oldest): more than \(Hub.maximumQuickActionApps) apps set some"))
        }
        apps.append(app)
        runTime[app] = items
    }

    /// A choice whose app is not connected waits for it until `now` + ``Hub/choiceLifetime``; beyond
    /// ``Hub/maximumPendingChoices`` the oldest goes.
    mutating func wait(app: String, action: String, now: Timestamp, _ work: inout Hub.Work) {
        if choices.count >= Hub.maximumPendingChoices {
            let old = choices.removeFirst()
            work.notices.append(.clientWarning("dropped the choice \(old.action) for \(old.app): too many waiting"))
        }
        choices.append(Choice(app: app, action: action, expires: now + Hub.choiceLifetime))
        work.notices.append(.client("choice \(action) waits for \(app) to connect"))
    }

    /// The choices waiting for `app`, in order.
    func choices(forApp app: String) -> [Choice] { choices.filter { $0.app == app } }

    /// Removes the choices for `app` that were delivered: `delivered` holds, in order, one flag for each
    /// of ``choices(forApp:)``.
    mutating func removeChoices(forApp app: String, delivered: [Bool]) {
        var kept: [Choice] = []
        var n = 0
        for c in choices {
            if c.app == app {
                defer { n += 1 }
                if n < delivered.count && delivered[n] { continue }
            }
            kept.append(c)
        }
        choices = kept
    }

    /// When the next waiting choice expires.
    /// Asked every wake-up (the loop's timer): a loop, where mapping the choices made an array each time.
    var earliestExpiry: Timestamp? {
        var earliest: Timestamp? = nil
        for c in choices { earliest = .earliest(earliest, c.expires) }
        return earliest
    }

    /// Drops the choices whose app never came, with a log line each.
    mutating func expire(now: Timestamp, _ work: inout Hub.Work) {
        choices.removeAll { c in
            guard c.expires <= now else { return false }
            work.notices.append(.clientWarning("dropped the choice \(c.action) for \(c.app): the app did not connect in time"))
            return true
        }
    }
}
