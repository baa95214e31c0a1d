// SPDX-License-Identifier: MIT
// ForceTouchArea against a real `pressured --replay`: each test replays one capture of make-captures.py
// (one finger at a known screen point) while TestCase.touchEvent touches the same point in step: pressed
// once the daemon's touch began, released once it ended. The daemon's screen is the scene moved by
// (100, 60), which the module learns from the first touch (test_a0).
import QtQuick
import QtQuick.Controls
import QtTest
import Pressured
import PressuredTest

Item {
    id: root
    width: 680
    height: 640

    readonly property point daemonOffset: Qt.point(100, 60) // make-captures.py's OFFSET

    Rectangle { // a tile that is a Button
        id: buttonTile
        x: 20; y: 20; width: 200; height: 200
        Button { id: button; anchors.fill: parent; text: "open" }
        ForceTouchArea { id: buttonArea }
    }
    Rectangle { // a tile that is a MouseArea
        id: mouseTile
        x: 240; y: 20; width: 200; height: 200
        MouseArea { id: mouseArea; anchors.fill: parent }
        ForceTouchArea { id: mouseAreaArea }
    }
    Rectangle { // a tile with a TapHandler
        id: tapTile
        x: 460; y: 20; width: 200; height: 200
        TapHandler { id: tapHandler }
        ForceTouchArea { id: tapArea }
    }
    Button { // outside every area
        id: plainButton
        x: 20; y: 260; width: 200; height: 100
        text: "plain"
    }

    Rectangle { // a Button whose area is disabled: the Button alone
        x: 20; y: 420; width: 200; height: 200
        Button {
            id: disabledAreaButton; anchors.fill: parent; text: "area off"
            ForceTouchArea { id: disabledArea; enabled: false }
        }
    }
    Rectangle { // a card with an area, a Button inside it with its own (the card's made later)
        id: card
        x: 240; y: 420; width: 200; height: 200
        Button {
            id: innerButton; x: 50; y: 50; width: 100; height: 100; text: "inner"
            ForceTouchArea { id: innerArea }
        }
        ForceTouchArea { id: cardArea }
    }
    ListView { // tiles in a ListView: `pressed` follows the finger
        id: list
        x: 460; y: 420; width: 200; height: 200
        model: 4
        delegate: Rectangle {
            required property int index
            width: 200; height: 100
            border.width: 1
            ForceTouchArea {
                objectName: "tile" + parent.index
                onForceChanged: root.listSamples.push({ force: force, pressed: pressed })
            }
        }
    }
    property var listSamples: []

    DaemonProcess { id: daemon }

    SignalSpy { id: began; target: Pressured; signalName: "touchBegan" }
    SignalSpy { id: ended; target: Pressured; signalName: "touchEnded" }
    SignalSpy { id: gestures; target: Pressured; signalName: "gesture" }
    SignalSpy { id: clicked; target: button; signalName: "clicked" }
    SignalSpy { id: buttonCanceled; target: button; signalName: "canceled" }
    SignalSpy { id: mouseClicked; target: mouseArea; signalName: "clicked" }
    SignalSpy { id: mouseCanceled; target: mouseArea; signalName: "canceled" }
    SignalSpy { id: tapped; target: tapHandler; signalName: "tapped" }
    SignalSpy { id: tapCanceled; target: tapHandler; signalName: "canceled" }
    SignalSpy { id: plainClicked; target: plainButton; signalName: "clicked" }
    SignalSpy { id: disabledAreaButtonClicked; target: disabledAreaButton; signalName: "clicked" }
    SignalSpy { id: innerClicked; target: innerButton; signalName: "clicked" }

    // Every area's every signal, in one list: "buttonArea.peeked" ...
    property var heard: []
    function listen(area, name) {
        for (const s of ["peeked", "popped", "dismissed", "quickActionsShown", "longPressed"])
            area[s].connect(function (p) { root.heard.push(name + "." + s) })
        area.forceChanged.connect(function (p) { root.heard.push(name + ".forceChanged") })
    }
    Component.onCompleted: {
        Pressured.socketPath = daemon.socketPath
        listen(buttonArea, "buttonArea"); listen(mouseAreaArea, "mouseAreaArea"); listen(tapArea, "tapArea")
        listen(disabledArea, "disabledArea"); listen(innerArea, "innerArea"); listen(cardArea, "cardArea")
    }
    function gestureSignals() {
        return heard.filter(s => !s.endsWith(".forceChanged"))
    }

    TestCase {
        id: test
        name: "ForceTouchArea"
        when: windowShown

        property var sequence

        function init() {
            root.heard = []
            for (const s of [began, ended, gestures, clicked, buttonCanceled, mouseClicked, mouseCanceled,
                             tapped, tapCanceled, plainClicked, disabledAreaButtonClicked, innerClicked])
                s.clear()
            root.listSamples = []
        }

        function cleanup() {
            daemon.stop()
        }

        // Replays `capture`, waits for the module to connect and the finger to land, then touches the
        // same place in the scene (the daemon's point less daemonOffset) and holds it until the daemon's
        // touch ended.
        function replayAndTouch(capture, started) {
            daemon.capture = capture
            if (!started)
                verify(daemon.start(), "pressured --replay " + capture + " did not start: " + daemon.log)
            tryCompare(Pressured, "connected", true, 5000)
            began.wait(5000)
            const e = began.signalArguments[0][0]
            const scene = Qt.point(e.screenX - daemonOffset.x, e.screenY - daemonOffset.y)
            sequence = touchEvent(root)
            sequence.press(0, root, scene.x, scene.y).commit()
            if (ended.count === 0)
                ended.wait(5000)
            sequence.release(0, root, scene.x, scene.y).commit()
            wait(50)
            return scene
        }

        function test_0_withoutDaemonAPlainArea() {
            compare(Pressured.connected, false)
            compare(buttonArea.available, false)
            compare(buttonArea.maximumPossibleForce, 0)
            verify(Pressured.status.indexOf("not connected") >= 0, Pressured.status)
            const seq = touchEvent(root)
            seq.press(0, root, 120, 120).commit()
            compare(buttonArea.pressed, true)
            compare(button.pressed, true)
            wait(100)
            seq.release(0, root, 120, 120).commit()
            compare(buttonArea.pressed, false)
            compare(clicked.count, 1, "the Button under it clicks")
            compare(heard, [], "and nothing else happens")
        }

        function test_a0_firstTouchReachesItsAreaNotTheNeighbours() {
            // The window's first touch: the regions still sit where Qt placed the window, and the press's
            // true point (10 px inside the MouseArea tile's right edge) falls in the TapHandler tile's.
            // test_0's Qt touch must be older than matchTime, or the replay's finger (it lands as the replay
            // starts) is paired with it.
            wait(Pressured.matchTime + 100)
            const window = root.mapToGlobal(0, 0)
            const truePoint = Qt.point(430 + daemonOffset.x, 120 + daemonOffset.y)
            const stale = Qt.point(truePoint.x - window.x, truePoint.y - window.y) // in the scene
            verify(stale.x >= 460 && stale.x < 660 && stale.y >= 20 && stale.y < 220,
                   "the offscreen window must sit so that the true point is in the neighbour's region: " + window)
            daemon.capture = "first-touch.evemu"
            verify(daemon.start(), daemon.log)
            tryCompare(Pressured, "connected", true, 5000)
            compare(Pressured.windowOffset, Qt.point(0, 0), "nothing learned yet")
            tryVerify(() => tapArea.screenRect.x === 460 + window.x, 2000, "stale region " + tapArea.screenRect)
            replayAndTouch("first-touch.evemu", true)
            compare(gestureSignals(), ["mouseAreaArea.peeked", "mouseAreaArea.popped"],
                    "the pressed tile peeks and pops, not the neighbour")
            compare(mouseClicked.count, 0, "and its MouseArea does not click")
            compare(tapped.count, 0)
        }

        function test_a_tapClicksOnceAndNoGesture() {
            replayAndTouch("tap.evemu")
            compare(clicked.count, 1, "an ordinary tap clicks")
            compare(gestureSignals(), [], "and brings no gesture")
            compare(gestures.count, 0)
            // The first touches taught the module where the daemon sees the window.
            // (Relative to where Qt places the window, which the offscreen platform does not put at 0, 0.)
            const window = root.mapToGlobal(0, 0)
            fuzzyCompare(Pressured.windowOffset.x, daemonOffset.x - window.x, 1)
            fuzzyCompare(Pressured.windowOffset.y, daemonOffset.y - window.y, 1)
            verify(Pressured.status.indexOf("from where Qt places this window") >= 0, Pressured.status)
            // And the regions moved there.
            tryVerify(() => Math.abs(buttonArea.screenRect.x - (20 + daemonOffset.x)) < 1, 2000,
                      "region at " + buttonArea.screenRect)
        }

        function test_b_firmPressPeeksPopsAndButtonDoesNotClick() {
            replayAndTouch("firm-press.evemu")
            compare(gestureSignals(), ["buttonArea.peeked", "buttonArea.popped"])
            verify(heard.indexOf("buttonArea.forceChanged") >= 0, "force follows the finger")
            compare(clicked.count, 0, "the Button under a pop does not click")
            compare(buttonCanceled.count, 1, "it was cancelled on the peek")
            // The gestures were the area's region's, and so the daemon's routing, not a fallback.
            verify(/^qt:\d+$/.test(gestures.signalArguments[0][0].region), gestures.signalArguments[0][0].region)
            compare(buttonArea.force, 0)
            compare(buttonArea.pressed, false)
        }

        function test_c_firmPressOnTapHandler() {
            replayAndTouch("firm-press-taphandler.evemu")
            compare(gestureSignals(), ["tapArea.peeked", "tapArea.popped"])
            compare(tapped.count, 0, "the TapHandler does not tap")
            verify(tapCanceled.count >= 1, "it was cancelled")
        }

        function test_d_holdLongPressesOnly() {
            replayAndTouch("hold.evemu")
            compare(gestureSignals(), ["mouseAreaArea.longPressed"])
            compare(mouseClicked.count, 0, "the MouseArea under a long press does not click")
            compare(mouseCanceled.count, 1)
        }

        function test_e_outsideEveryAreaGetsNothing() {
            replayAndTouch("firm-press-outside.evemu")
            compare(heard, [], "no area hears of a touch outside every area")
            // The daemon broadcast it, untagged: it is nobody's here.
            compare(gestures.count, 2)
            compare(gestures.signalArguments[0][0].type, "peek")
            compare(gestures.signalArguments[0][0].region, undefined)
            compare(plainClicked.count, 1, "and what is there clicks as ever")
        }

        function test_e2_aDisabledAreaIsNoArea() {
            replayAndTouch("firm-press-disabled.evemu")
            compare(gestureSignals(), [], "a disabled area hears no gesture")
            compare(disabledAreaButtonClicked.count, 1, "and the Button it is in clicks")
        }

        function test_e3_theInnerOfNestedAreasWins() {
            // Equal regionZ: the Button's area, inside the card, wins over the card's (made later).
            replayAndTouch("firm-press-nested.evemu")
            compare(gestureSignals(), ["innerArea.peeked", "innerArea.popped"])
            compare(innerClicked.count, 0)
        }

        function test_e4_pressedFollowsAListTile() {
            replayAndTouch("press-list.evemu")
            const moving = root.listSamples.filter(s => s.force > 0)
            verify(moving.length > 10, JSON.stringify(root.listSamples))
            verify(moving.every(s => s.pressed), "pressed while force > 0: " + JSON.stringify(moving))
            verify(Math.max(...moving.map(s => s.force)) > 2, "force rose to a pop")
        }

        function test_e5_withoutPreviewsTheButtonClicks() {
            buttonArea.previews = false
            replayAndTouch("firm-press.evemu")
            buttonArea.previews = true
            compare(gestureSignals(), [], "no peek or pop for an area that wants no previews")
            compare(clicked.count, 1, "so the Button under it clicks on a firm press")
            compare(buttonCanceled.count, 0)
        }

        function test_f_reconnectsWhenTheDaemonRestarts() {
            daemon.capture = "firm-press.evemu"
            verify(daemon.start())
            tryCompare(Pressured, "connected", true, 5000)
            compare(Pressured.devices.length, 1)
            compare(Pressured.devices[0].force, "available")
            daemon.kill()
            tryCompare(Pressured, "connected", false, 5000)
            compare(Pressured.devices.length, 0)
            compare(buttonArea.available, false)
            // The killed daemon's contact was ended by libpressured (a synthesized cancelled): the
            // next replay's touch is another one.
            began.clear()
            ended.clear()
            // Back again: the module reconnects by itself and registers its regions anew.
            replayAndTouch("firm-press.evemu")
            compare(gestureSignals(), ["buttonArea.peeked", "buttonArea.popped"])
            verify(/^qt:\d+$/.test(gestures.signalArguments[0][0].region), gestures.signalArguments[0][0].region)
            compare(clicked.count, 0)
        }

        function test_f2_aKilledDaemonEndsThePeekAndTheContact() {
            daemon.capture = "peek-hold.evemu"
            verify(daemon.start(), daemon.log)
            tryCompare(Pressured, "connected", true, 5000)
            began.wait(5000)
            const e = began.signalArguments[0][0]
            const scene = Qt.point(e.screenX - daemonOffset.x, e.screenY - daemonOffset.y)
            const seq = touchEvent(root)
            seq.press(0, root, scene.x, scene.y).commit()
            tryCompare(buttonArea, "peeking", true, 5000)
            verify(buttonArea.force > 1)
            daemon.kill() // mid-peek, without a word
            tryCompare(Pressured, "connected", false, 5000)
            compare(gestureSignals(), ["buttonArea.peeked", "buttonArea.dismissed"], "the peek ends, once")
            compare(buttonArea.peeking, false)
            compare(buttonArea.force, 0)
            compare(buttonArea.peekProgress, 0)
            compare(buttonArea.popProgress, 0)
            compare(buttonArea.pressed, true, "the Qt finger is still down")
            seq.release(0, root, scene.x, scene.y).commit()
            wait(50)
            compare(buttonArea.pressed, false, "and nothing of the daemon's contact is left")
            compare(clicked.count, 0, "the finger that peeked does not click when it lifts")
        }

        function test_g_hiddenAreaIsNoRegion() {
            daemon.capture = "tap.evemu"
            verify(daemon.start())
            tryCompare(Pressured, "connected", true, 5000)
            tryVerify(() => buttonArea.screenRect.width > 0)
            buttonTile.visible = false
            compare(buttonArea.screenRect.width, 0, "hidden: no region")
            buttonTile.visible = true
            tryVerify(() => buttonArea.screenRect.width === 200)
            buttonTile.x = 40
            tryVerify(() => Math.abs(buttonArea.screenRect.x - (40 + daemonOffset.x)) < 1, 2000,
                      "moved: region moved, at " + buttonArea.screenRect)
            buttonTile.x = 20
        }
    }
}
