import PressureCore

extension RegionRouter {
    /// Where a touch a region owns is in its press, as far as what its owner is sent goes. What the
    /// region is (an icon: an `app` that wants `quickActions`; what else it wants) is fixed when the touch
    /// begins; the stage is what the touch's gestures made of it.
    ///
    /// One transition function, ``after(_:wants:icon:)``, for each gesture of the touch; for a stage and a
    /// gesture, the first row whose condition holds applies (`same`: the stage stays as it is):
    ///
    /// | stage                               | gesture          | condition           | next         | the owner gets     |
    /// |-------------------------------------|------------------|---------------------|--------------|--------------------|
    /// | any                                 | `peek`           | an icon             | `menu`       | the icon's menu    |
    /// | any                                 | `peek`           | wants previews      | `previewing` | the gesture        |
    /// | any                                 | `peek`           | otherwise           | `refused`    | —                  |
    /// | `pressing`, `previewing`            | `pop`, `dismiss` |                     | same         | the gesture        |
    /// | `menu`, `refused`                   | `pop`, `dismiss` |                     | same         | —                  |
    /// | `pressing`, `previewing`, `refused` | `quickActions`   | wants quick actions | same         | the region's items |
    /// | any                                 | `quickActions`   | otherwise           | same         | —                  |
    /// | any                                 | `longPress`      | wants long press    | same         | the gesture        |
    /// | any                                 | `longPress`      | otherwise           | same         | —                  |
    ///
    /// The icon's menu is the peek turned into `quickActions` with the app's items then the icon's own
    /// (``Menu/icon(app:own:)``); the region's items are the swipe up's `quickActions` with the region's
    /// (``Menu/items(_:)``). A touch peeks once (`docs/gestures.md`); were it to peek again, the same region
    /// would give the same stage.
    ///
    /// Whether the owner sees the touch's `progress` (``showsProgress(wants:icon:)``): its next force
    /// threshold, shown only where that threshold can bring the owner something:
    ///
    /// | stage               | shows progress             |
    /// |---------------------|----------------------------|
    /// | `pressing`          | wants previews, or an icon |
    /// | `previewing`        | always                     |
    /// | `menu`, `refused`   | never                      |
    ///
    /// `RegionRouterTests` reads both tables and holds the code to them.
    enum Stage: Hashable, Sendable, CaseIterable {
        /// Not peeked yet.
        case pressing
        /// Peeked, and the owner got the peek: a pop or a dismiss follows it.
        case previewing
        /// An icon's peek was shown as its quick-action menu: the rest of the press is the menu's.
        case menu
        /// Peeked in a region that does not want previews: its peek, pop and dismiss are not sent.
        case refused

        /// What the owner gets of a gesture.
        enum Sent: Hashable, Sendable {
            case nothing
            /// The gesture as it came.
            case gesture
            /// The peek turned into the quick-action menu of the icon for `app`.
            case iconMenu(app: String)
            /// `quickActions` with the region's own items.
            case regionItems
        }

        /// The stage after gesture `g` of the touch, and what its owner gets of it, in a region that
        /// wants `wants` and is the icon of app `icon` (nil: not an icon).
        func after(_ g: GestureKind, wants: RegionWants, icon: String?) -> (next: Stage, sent: Sent) {
            switch (self, g) {
            case (_, .peek):
                // An icon: pressing it shows the app's quick actions, as on a home screen.
                if let icon { return (.menu, .iconMenu(app: icon)) }
                return wants.contains(.previews) ? (.previewing, .gesture) : (.refused, .nothing)
            case (.pressing, .pop), (.pressing, .dismiss), (.previewing, .pop), (.previewing, .dismiss):
                return (self, .gesture)
            case (.menu, .pop), (.menu, .dismiss), (.refused, .pop), (.refused, .dismiss):
                return (self, .nothing)
            case (.menu, .quickActions):
                return (self, .nothing)
            case (_, .quickActions):
                // The swipe up of a peek, shown or not: a region that wants quick actions but no previews
                // still gets its items.
                return (self, wants.contains(.quickActions) ? .regionItems : .nothing)
            case (_, .longPress):
                return (self, wants.contains(.longPress) ? .gesture : .nothing)
            }
        }

        /// Whether the owner is to see the touch's next force threshold come: before the peek, where the
        /// peek shows something (a preview, an icon's menu); while previewing, where a pop can follow.
        func showsProgress(wants: RegionWants, icon: String?) -> Bool {
            switch self {
            case .pressing: wants.contains(.previews) || icon != nil
            case .previewing: true
            case .menu, .refused: false
            }
        }
    }
}
