#!/usr/bin/python3
"""Starts a ScreenCast session through xdg-desktop-portal's D-Bus API, as an
application sharing its screen would: CreateSession, SelectSources (a
monitor), Start. Prints one line per step ("session PATH", "sources",
"node ID" for each PipeWire stream) or "refused STEP CODE", then keeps the
session open until stdin closes, as the session ends with its caller."""
import sys

import dbus
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

DBusGMainLoop(set_as_default=True)
bus = dbus.SessionBus()
portal = bus.get_object('org.freedesktop.portal.Desktop',
                        '/org/freedesktop/portal/desktop')
screencast = dbus.Interface(portal, 'org.freedesktop.portal.ScreenCast')
sender = bus.get_unique_name()[1:].replace('.', '_')
loop = GLib.MainLoop()
tokens = 0


def request(step, method, *args):
    """Calls a portal method and waits for its Request's Response."""
    global tokens
    tokens += 1
    token = 'fairway%d' % tokens
    path = '/org/freedesktop/portal/desktop/request/%s/%s' % (sender, token)
    answer = {}

    def on_response(response, results):
        answer['response'] = int(response)
        answer['results'] = results
        loop.quit()

    # Subscribed before the call, so that the answer cannot come first.
    bus.add_signal_receiver(on_response, 'Response',
                            'org.freedesktop.portal.Request', path=path)
    options = dict(args[-1])
    options['handle_token'] = token
    method(*args[:-1], dbus.Dictionary(options, signature='sv'))
    timeout = GLib.timeout_add_seconds(30, loop.quit)
    loop.run()
    GLib.source_remove(timeout)
    if 'response' not in answer:
        print('refused %s no-answer' % step, flush=True)
        sys.exit(1)
    if answer['response'] != 0:
        print('refused %s %d' % (step, answer['response']), flush=True)
        sys.exit(1)
    return answer['results']


results = request('CreateSession', screencast.CreateSession,
                  {'session_handle_token': 'fairway'})
session = results['session_handle']
print('session', session, flush=True)
request('SelectSources', screencast.SelectSources, session,
        {'types': dbus.UInt32(1), 'multiple': False})
print('sources', flush=True)
results = request('Start', screencast.Start, session, '', {})
for node, properties in results['streams']:
    print('node', int(node), flush=True)
sys.stdin.read()
