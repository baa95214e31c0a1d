// SPDX-License-Identifier: MIT
import QtQuick
import QtQuick.Controls
import Pressured

// A tile: a Button (tapping opens it) under a ForceTouchArea (peek previews it, pop opens it, and on an
// icon the quick actions show).
Button {
    id: tile
    property string title
    property string detail
    property color tint: "#4a7bd0"
    property alias area: area
    signal preview(var tile)
    signal unpreview()
    signal open(var tile)
    signal actions(var tile, var items, point at)

    text: title
    font.pixelSize: 28
    background: Rectangle {
        radius: 18
        color: tile.down ? Qt.darker(tile.tint, 1.3) : tile.tint
        // The hint iOS gives under the finger: the tile shrinks as the force nears the peek.
        scale: 1 - 0.05 * area.peekProgress
        Rectangle {
            anchors { left: parent.left; bottom: parent.bottom; margins: 12 }
            height: 6; radius: 3; color: "#ffffff"; opacity: 0.6
            width: (parent.width - 24) * (area.maximumPossibleForce > 0 ? area.force / area.maximumPossibleForce : 0)
        }
    }
    contentItem: Text {
        text: tile.text; font: tile.font; color: "white"
        horizontalAlignment: Text.AlignHCenter; verticalAlignment: Text.AlignVCenter
    }
    onClicked: { console.log("kiosk:", title, "clicked"); tile.open(tile) }

    ForceTouchArea {
        id: area
        onPeeked: { console.log("kiosk:", tile.title, "peeked"); tile.preview(tile) }
        onDismissed: { console.log("kiosk:", tile.title, "dismissed"); tile.unpreview() }
        onPopped: { console.log("kiosk:", tile.title, "popped"); tile.open(tile) }
        onQuickActionsShown: (point, items) => {
            console.log("kiosk:", tile.title, "quick actions", items.map(i => i.title).join(", "))
            tile.actions(tile, items, mapToItem(null, point.x, point.y))
        }
        onLongPressed: console.log("kiosk:", tile.title, "long-pressed")
    }
}
