// The toolkit app of the compositor matrix (tools/vmtest.d/vmguest/filter_stacks.py), run with Qt's own QML
// runtime (`/usr/lib/qt6/bin/qml`, Debian's qml-qt6): a button over the top half of the screen that counts
// its clicks, and a list over the bottom half that reports its scrolling, each line of it on the runtime's
// standard error as `app: ...`, which the scenario reads. Filling the screen: the touch panel maps onto the
// whole output, so a touch's place on the panel says which of the two it lands on.
import QtQuick
import QtQuick.Controls

ApplicationWindow {
    id: window
    // Under X without a window manager a window is where and as large as it asks; under the Wayland
    // compositors the shell makes it fill the output anyway.
    x: 0
    y: 0
    width: Screen.width
    height: Screen.height
    visible: true
    visibility: Window.FullScreen
    title: "pressured touch app"

    property int clicks: 0

    function say(what) {
        console.log("app: " + what)
    }

    Component.onCompleted: say("ready " + width + "x" + height)

    Button {
        id: button
        x: 0
        y: 0
        width: window.width
        height: window.height / 2
        text: "clicked " + window.clicks
        onClicked: {
            window.clicks += 1
            window.say("clicked " + window.clicks)
        }
        onPressedChanged: window.say(pressed ? "button pressed" : "button released")
        onCanceled: window.say("button canceled")
    }

    ListView {
        id: list
        x: 0
        y: window.height / 2
        width: window.width
        height: window.height / 2
        clip: true
        model: 200
        delegate: Rectangle {
            required property int index
            width: list.width
            height: 40
            color: index % 2 ? "#dde" : "#fff"
            Text { anchors.centerIn: parent; text: "row " + parent.index }
        }
        onDraggingChanged: window.say(dragging ? "list drag started" : "list drag ended at " + Math.round(contentY))
        onMovementEnded: window.say("list stopped at " + Math.round(contentY))
    }

}
