"""End-to-end tests of the asyncio client (`pressured.AsyncClient`) against a real `pressured --replay`; run
by tools/test-python against the installed package, after `swift build`. Every await on the daemon is
bounded (`WAIT`), so a client that waits for what never comes fails instead of hanging."""
import asyncio
import json
import signal
import tempfile
import unittest

import pressured
from running_daemon import FIXTURE, Daemon, expected_ends, held_peek_capture, replay_lines, served

# Seconds any one test may take talking to its daemon.
WAIT = 20


class AsyncClientTests(unittest.IsolatedAsyncioTestCase):
    async def test_receives_exactly_what_pressurectl_replay_prints(self):
        expected = [json.loads(line) for line in replay_lines("--touches", FIXTURE)]
        daemon = Daemon("--replay", FIXTURE, "--speed", "0", "--exit-when-done")
        self.addCleanup(daemon.stop)

        async def run():
            async with pressured.AsyncClient(daemon.socket) as client:
                self.assertEqual(client.hello["protocol"], pressured.PROTOCOL_VERSION)
                self.assertEqual(client.hello["devices"][0]["forceUnavailable"], "learning")
                reply = await client.subscribe(events=["gestures", "touches"])
                self.assertEqual(reply["events"], ["gestures", "touches"])
                return [e async for e in client.events() if served(e)]
        self.assertEqual(await asyncio.wait_for(run(), WAIT), expected)

    async def test_events_that_come_while_a_request_waits_are_kept_in_order(self):
        expected = [json.loads(line) for line in replay_lines("--touches", FIXTURE)]
        daemon = Daemon("--replay", FIXTURE, "--speed", "0")  # it stays up: every request is answered
        self.addCleanup(daemon.stop)

        async def run():
            got = []
            async with pressured.AsyncClient(daemon.socket) as client:
                await client.subscribe(events=["gestures", "touches"])
                async for event in client.events():
                    if served(event):
                        got.append(event)
                        if len(got) == len(expected):
                            break
                        if len(got) % 3 == 1:
                            self.assertIsInstance(await client.ping(), float)
            return got
        self.assertEqual(await asyncio.wait_for(run(), WAIT), expected)

    async def test_one_task_reads_events_while_others_make_requests(self):
        expected = [json.loads(line) for line in replay_lines("--touches", FIXTURE)]
        daemon = Daemon("--replay", FIXTURE, "--speed", "0")
        self.addCleanup(daemon.stop)

        async def run():
            async with pressured.AsyncClient(daemon.socket) as client:
                await client.subscribe(events=["gestures", "touches"])

                async def read():
                    events = []
                    async for event in client.events():
                        events.append(event)
                        if len([e for e in events if served(e)]) == len(expected):
                            return events

                async def ask(n):
                    return (await client.status())["clients"] if n % 2 else await client.ping()
                return await asyncio.gather(read(), *(ask(n) for n in range(20)))
        events, *answers = await asyncio.wait_for(run(), WAIT)
        self.assertEqual([e for e in events if served(e)], expected)
        self.assertEqual([e for e in events if not served(e)], [])  # every answer went to its own request
        self.assertEqual(answers[1::2], [1] * 10)
        self.assertTrue(all(isinstance(t, float) for t in answers[0::2]))

    async def test_requests_and_errors(self):
        daemon = Daemon("--replay", FIXTURE, calibrated=True)
        self.addCleanup(daemon.stop)

        async def run():
            async with pressured.AsyncClient(daemon.socket) as client:
                self.assertIsInstance(await client.ping(), float)
                self.assertEqual((await client.devices())[0]["forceCapability"], "available")
                self.assertEqual((await client.status())["clients"], 1)
                with self.assertRaises(pressured.PressuredError) as caught:
                    await client.subscribe(events=["nonsense"])
                self.assertEqual(caught.exception.code, "invalid-argument")
                with self.assertRaises(pressured.PressuredError) as caught:
                    await client.request("noSuchRequest")
                self.assertEqual(caught.exception.code, "unknown-request")
                self.assertEqual((await client.subscribe(events=["devices"]))["devices"], "all")  # it stays
                self.assertEqual((await client.set(sensitivity="firm"))["sensitivity"], "firm")
                async for event in client.events():
                    if event["type"] == "settings":
                        self.assertEqual(event["settings"]["sensitivity"], "firm")
                        break
                region = await client.set_region("tile", 10, 10, 100, 100, wants=["longPress"], haptics=False)
                self.assertEqual(region["region"], "tile")
                await client.remove_region("tile")
                self.assertEqual((await client.reload())["sensitivity"], "medium")
        await asyncio.wait_for(run(), WAIT)

    async def test_a_cancelled_request_drops_its_answer(self):
        expected = [json.loads(line) for line in replay_lines(FIXTURE)] + [
            {"type": "bye", "reason": "shutdown"}, {"type": "disconnected", "reason": "bye", "synthesized": True}]
        daemon = Daemon("--replay", FIXTURE, "--speed", "0", "--exit-when-done")
        self.addCleanup(daemon.stop)

        async def run():
            async with pressured.AsyncClient(daemon.socket) as client:
                waiting = asyncio.ensure_future(client.ping())
                await asyncio.sleep(0)  # one turn of the loop: the ping is sent and waits for its reply
                waiting.cancel()
                await asyncio.gather(waiting, return_exceptions=True)
                await client.subscribe(events=["gestures"])  # answered after the ping's reply was filed
                return [e async for e in client.events()]
        self.assertEqual(await asyncio.wait_for(run(), WAIT), expected)  # and no stray reply among them

    async def test_bye_ends_the_events_and_a_request_after_it_says_the_connection_closed(self):
        daemon = Daemon("--replay", FIXTURE)
        self.addCleanup(daemon.stop)

        async def run():
            async with pressured.AsyncClient(daemon.socket) as client:
                await client.subscribe(events=["devices"])
                daemon.terminate()
                events = [e async for e in client.events()]
                self.assertEqual(events[-2:], [{"type": "bye", "reason": "shutdown"},
                                               {"type": "disconnected", "reason": "bye", "synthesized": True}])
                self.assertEqual([e async for e in client.events()], [])
                with self.assertRaises(pressured.ConnectionClosed) as caught:
                    await client.ping()
                self.assertEqual(caught.exception.reason, "bye")
        await asyncio.wait_for(run(), WAIT)

    async def test_a_daemon_killed_mid_peek_ends_the_peek_the_contact_and_the_request_waiting(self):
        directory = tempfile.TemporaryDirectory()
        self.addCleanup(directory.cleanup)
        daemon = Daemon("--replay", held_peek_capture(directory.name), "--speed", "10", calibrated=True)
        self.addCleanup(daemon.stop)

        async def run():
            async with pressured.AsyncClient(daemon.socket) as client:
                await client.subscribe(events=["gestures", "touches"])
                events = client.events()
                before = []
                async for event in events:
                    before.append(event)
                    if event["type"] == "peek":
                        break
                # Stopped, the daemon reads the ping and never answers it: a request waiting when it dies.
                daemon.proc.send_signal(signal.SIGSTOP)
                waiting = asyncio.ensure_future(client.ping())
                await asyncio.sleep(0.1)
                self.assertFalse(waiting.done())
                await asyncio.get_running_loop().run_in_executor(None, daemon.kill)  # reaped off the loop
                after = [e async for e in events]
                self.assertEqual(after[-3:], expected_ends(before + after[:-3]))
                self.assertEqual([e for e in after[:-3] if e.get("phase") != "moved"], [])
                with self.assertRaises(pressured.ConnectionClosed) as caught:
                    await waiting
                self.assertEqual(caught.exception.reason, "lost")
        await asyncio.wait_for(run(), WAIT)

    async def test_a_client_past_max_clients_is_told_why(self):
        daemon = Daemon("--replay", FIXTURE, config="[pressured]\nMaxClients = 1\n")
        self.addCleanup(daemon.stop)

        async def run():
            async with pressured.AsyncClient(daemon.socket) as first:
                second = pressured.AsyncClient(daemon.socket)
                with self.assertRaises(pressured.PressuredError) as caught:
                    await second.connect()
                self.assertEqual(caught.exception.code, "too-many-clients")
                self.assertTrue(caught.exception.fatal)
                self.assertIn("MaxClients = 1", caught.exception.message)
                self.assertIsNone(second.hello)
                self.assertEqual((await first.status())["clients"], 1)  # the one connected goes on
        await asyncio.wait_for(run(), WAIT)

    async def test_nothing_serving_the_socket_is_an_os_error(self):
        with self.assertRaises(FileNotFoundError):
            await pressured.AsyncClient("/nonexistent/pressured.sock").connect()


if __name__ == "__main__":
    unittest.main()
