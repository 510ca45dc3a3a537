// Package settingsui is the pure part of the desktop client's settings:
// the settings screen's state machine (Form: which field has the keys,
// what keys, clicks, drags and the wheel change), the small pause menu the
// game opens on Esc (Pause), a name field (TextField), their layout on the
// logical screen, and Prefs, which applies changed settings (volumes,
// fullscreen) and saves them. It draws nothing and links no Ebitengine, so
// it is tested without a display; package desktop reads the devices into an
// Input and draws what these say.
package settingsui
