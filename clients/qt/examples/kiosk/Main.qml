// SPDX-License-Identifier: MIT
import QtQuick
import QtQuick.Controls
import Pressured

Window {
    id: window
    x: 0; y: 0 // the replayed capture presses at screen points: the window sits where they expect it
    width: 1024; height: 768
    visible: true
    color: "#1d2230"
    title: "pressured kiosk"
    property string shotFile: screenshotFile

    Component.onCompleted: {
        if (socketPath)
            Pressured.socketPath = socketPath
        Pressured.start()
    }
    Connections {
        target: Pressured
        function onConnectedChanged() {
            console.log("kiosk: pressured", Pressured.connected ? "connected" : "disconnected", "-", Pressured.status)
            if (!Pressured.connected && quitWhenDisconnected)
                Qt.callLater(Qt.quit)
        }
    }

    Rectangle { anchors.fill: parent; color: window.color } // in grabToImage's picture too

    Text {
        x: 24; y: 16
        text: "Café Kiosk"; color: "white"; font.pixelSize: 34; font.bold: true
    }
    Text {
        anchors { right: parent.right; rightMargin: 24; top: parent.top; topMargin: 28 }
        color: Pressured.forceAvailable ? "#9be29b" : "#c0c0c0"; font.pixelSize: 16
        text: Pressured.connected ? (Pressured.forceAvailable ? "Press firmly to preview" : "Force touch: "
                                     + (Pressured.devices.length ? Pressured.devices[0].why : "no device"))
                                  : "Force touch off (no pressured)"
    }

    readonly property var tiles: [
        { title: "Espresso", detail: "Double shot, 60 ml. Our house blend: cocoa and hazelnut.", tint: "#7a4b2a" },
        { title: "Cappuccino", detail: "Espresso, steamed milk and a deep layer of foam. 180 ml.", tint: "#b07a3c" },
        { title: "Menu", detail: "", tint: "#3f7f5f", app: "org.example.menu" },
        { title: "Croissant", detail: "Butter croissant, baked every morning.", tint: "#c8953a" },
        { title: "Tea", detail: "Green, black or mint. Loose leaf, 400 ml pot.", tint: "#4a7bd0" },
        { title: "Juice", detail: "Fresh orange, pressed to order. 250 ml.", tint: "#d06a2a" },
    ]
    Repeater {
        model: window.tiles
        Tile {
            required property var modelData
            required property int index
            x: 24 + (index % 3) * 324; y: 84 + Math.floor(index / 3) * 324
            width: 300; height: 300
            title: modelData.title; detail: modelData.detail; tint: modelData.tint
            area.app: modelData.app ?? ""
            area.quickActions: modelData.app ? [
                { id: "order-again", title: "Order again", icon: "repeat" },
                { id: "specials", title: "Today's specials", subtitle: "3 new" },
            ] : []
            onPreview: (t) => previewCard.show(t)
            onUnpreview: previewCard.hide()
            onOpen: (t) => { previewCard.hide(); openPage.show(t) }
            onActions: (t, items, at) => quickMenu.show(items, at)
        }
    }

    Button {
        id: callStaff
        x: 24; y: 716; width: 300; height: 44
        text: "Call staff"
        onClicked: console.log("kiosk: Call staff clicked")
        ForceTouchArea { onPopped: console.log("kiosk: Call staff popped (and must not click)") }
    }

    // The preview: the tile, large, over a dimmed kiosk (iOS's peek).
    Rectangle {
        id: previewCard
        anchors.fill: parent
        color: "#a0000000"
        visible: opacity > 0
        opacity: 0
        property var tile: null
        Behavior on opacity { NumberAnimation { duration: 150 } }
        function show(t) { tile = t; opacity = 1; if (window.shotFile) shot.start() }
        function hide() { opacity = 0 }
        Rectangle {
            anchors.centerIn: parent
            width: 560; height: 420; radius: 28
            color: previewCard.tile ? previewCard.tile.tint : "grey"
            scale: previewCard.opacity * 0.1 + 0.9
            Column {
                anchors.centerIn: parent; width: parent.width - 80; spacing: 18
                Text { text: previewCard.tile ? previewCard.tile.title : ""; color: "white"; font.pixelSize: 48; font.bold: true }
                Text {
                    width: parent.width; wrapMode: Text.WordWrap; color: "white"; font.pixelSize: 24
                    text: previewCard.tile ? previewCard.tile.detail : ""
                }
                Text { text: "Press harder to open"; color: "#e0ffffff"; font.pixelSize: 18 }
            }
        }
        Timer {
            id: shot
            interval: 400
            onTriggered: window.contentItem.grabToImage(function (result) {
                console.log("kiosk: preview saved to", window.shotFile, result.saveToFile(window.shotFile))
                window.shotFile = ""
            })
        }
    }

    // The opened tile.
    Rectangle {
        id: openPage
        anchors.fill: parent
        visible: false
        color: tile ? tile.tint : "grey"
        property var tile: null
        function show(t) { tile = t; visible = true; closer.restart() }
        Text { anchors.centerIn: parent; text: openPage.tile ? openPage.tile.title : ""; color: "white"; font.pixelSize: 72 }
        Timer { id: closer; interval: 1200; onTriggered: openPage.visible = false }
    }

    // An icon's quick actions.
    Popup {
        id: quickMenu
        property var items: []
        width: 320; padding: 8
        function show(list, at) { items = list; x = Math.min(at.x, window.width - width); y = at.y; open() }
        contentItem: Column {
            spacing: 4
            Repeater {
                model: quickMenu.items
                ItemDelegate {
                    required property var modelData
                    width: 300; text: modelData.title + (modelData.subtitle ? " — " + modelData.subtitle : "")
                    onClicked: { Pressured.chooseAction("org.example.menu", modelData.id); quickMenu.close() }
                }
            }
        }
    }
}
