// The app of the actions' checks (tools/vmtest.d/vmguest/action_stacks.py), run with Qt's own QML runtime as
// touch-app.qml is: an item over the top half of the screen with a context menu (a right click opens a Menu
// at the pointer) that counts its left clicks, a list over the bottom half that reports its scrolling, and a
// key handler that prints the key combinations it gets; each line on standard error as `app: ...`.
import QtQuick
import QtQuick.Controls

ApplicationWindow {
    id: window
    x: 0
    y: 0
    width: Screen.width
    height: Screen.height
    visible: true
    visibility: Window.FullScreen
    title: "pressured action app"

    property int clicks: 0

    function say(what) {
        console.log("app: " + what)
    }

    Component.onCompleted: say("ready " + width + "x" + height)

    Item {
        id: keys
        anchors.fill: parent
        focus: true
        Keys.onPressed: function(event) {
            // A modifier alone is not a combination: it is said with the key it modifies.
            if ([Qt.Key_Control, Qt.Key_Shift, Qt.Key_Alt, Qt.Key_Meta].indexOf(event.key) >= 0)
                return
            var mods = ""
            if (event.modifiers & Qt.ControlModifier) mods += "Ctrl+"
            if (event.modifiers & Qt.ShiftModifier) mods += "Shift+"
            if (event.modifiers & Qt.AltModifier) mods += "Alt+"
            var name = event.key >= 0x20 && event.key < 0x7f ? String.fromCharCode(event.key) : "0x" + event.key.toString(16)
            window.say("key " + mods + name)
            event.accepted = true
        }
    }

    Rectangle {
        id: item
        x: 0
        y: 0
        width: window.width
        height: window.height / 2
        color: "#cdf"
        Text { anchors.centerIn: parent; text: "clicked " + window.clicks }

        MouseArea {
            anchors.fill: parent
            acceptedButtons: Qt.LeftButton | Qt.RightButton
            onPressed: function(mouse) {
                window.say((mouse.button === Qt.RightButton ? "right" : "left") + " pressed at "
                           + Math.round(mouse.x) + "," + Math.round(mouse.y))
            }
            onClicked: function(mouse) {
                if (mouse.button === Qt.RightButton) {
                    window.say("right click at " + Math.round(mouse.x) + "," + Math.round(mouse.y))
                    menu.popup(mouse.x, mouse.y)
                } else {
                    window.clicks += 1
                    window.say("clicked " + window.clicks)
                }
            }
        }

        Menu {
            id: menu
            MenuItem { text: "Copy" }
            MenuItem { text: "Paste" }
            onOpened: {
                window.say("menu opened at " + Math.round(x) + "," + Math.round(y))
                closer.start()
            }
        }
        // Closed again soon, so the next case's touch reaches the item, not the menu's press outside.
        Timer { id: closer; interval: 400; onTriggered: { menu.close(); keys.forceActiveFocus() } }
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
