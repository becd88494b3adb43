#!/usr/bin/python3
"""Sends one notification with aioapns (a real APNs provider library, token authentication) to
`pushpreview serve`: only its host, port and CA are changed, nothing else. Prints the result as
JSON: {"ok": bool, "status": "200", "id": "...", "description": ...}.
Usage: apns-client.py HOST PORT CA_PEM KEY_P8 KEY_ID TEAM_ID TOPIC TOKEN TITLE [COLLAPSE_ID]"""
import asyncio, json, ssl, sys, uuid
from aioapns import APNs, NotificationRequest, PushType
from aioapns.connection import APNsDevelopmentClientProtocol, APNsProductionClientProtocol

host, port, ca, key, key_id, team_id, topic, token, title = sys.argv[1:10]
collapse = sys.argv[10] if len(sys.argv) > 10 else None
# Where the library connects (its constants) and which CA it trusts: nothing else is changed.
for protocol in (APNsDevelopmentClientProtocol, APNsProductionClientProtocol):
    protocol.APNS_SERVER, protocol.APNS_PORT = host, int(port)

async def main():
    context = ssl.create_default_context(cafile=ca)
    context.set_alpn_protocols(["h2"])
    client = APNs(key=open(key).read(), key_id=key_id, team_id=team_id, topic=topic, use_sandbox=True, ssl_context=context)
    request = NotificationRequest(device_token=token, message={"aps": {"alert": {"title": title, "body": "Sent by aioapns"}, "sound": "default"}},
                                  notification_id=str(uuid.uuid4()), push_type=PushType.ALERT, collapse_key=collapse)
    result = await asyncio.wait_for(client.send_notification(request), 30)
    print(json.dumps({"ok": result.is_successful, "status": result.status, "id": result.notification_id, "description": result.description}))

asyncio.run(main())
