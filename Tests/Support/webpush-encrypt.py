#!/usr/bin/env python3
"""An application server for the Web Push end-to-end tests, written on Python's `cryptography`
(Debian's python3-cryptography) from RFC 8291 / RFC 8188 and draft-ietf-webpush-encryption-04,
so it shares no code with PushPreview's libcrypto path.

  webpush-encrypt.py aes128gcm|aesgcm base64url|z85 RECORD_SIZE PLAINTEXT

Makes a new subscription (a P-256 key pair and a 16-byte auth secret) and one message to it,
then prints a JSON object: "keys" is the app group's webpush.json, "payload" the custom keys a
relay would send ("p", and for aesgcm "s" the salt and "k" the sender's key). aes128gcm bodies
are cut into records of RECORD_SIZE bytes. Exits 3 when `cryptography` cannot be imported.
"""
import base64, json, os, sys

try:
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
except ImportError as error:
    print(f"webpush-encrypt.py: {error}", file=sys.stderr)
    sys.exit(3)

Z85 = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#"


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def z85(data):
    """ZeroMQ RFC 32, and toot-relay's short last group: n bytes as n + 1 digits."""
    out = []
    for start in range(0, len(data), 4):
        group = data[start:start + 4]
        value = int.from_bytes(group, "big")
        digits = []
        for _ in range(len(group) + 1):
            digits.append(Z85[value % 85])
            value //= 85
        out.append("".join(reversed(digits)))
    return "".join(out)


def hkdf(salt, ikm, info, length):
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt, info=info).derive(ikm)


def public_bytes(key):
    return key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)


def aes128gcm(plaintext, ua_public, auth, record_size):
    """RFC 8291 §3.4 keys, RFC 8188 §2 records: data, delimiter 1 (2 in the last), zeros."""
    sender = ec.generate_private_key(ec.SECP256R1())
    as_public = public_bytes(sender)
    secret = sender.exchange(ec.ECDH(), ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), ua_public))
    ikm = hkdf(auth, secret, b"WebPush: info\x00" + ua_public + as_public, 32)
    salt = os.urandom(16)
    cek = hkdf(salt, ikm, b"Content-Encoding: aes128gcm\x00", 16)
    nonce = hkdf(salt, ikm, b"Content-Encoding: nonce\x00", 12)
    chunk = record_size - 17
    pieces = [plaintext[i:i + chunk] for i in range(0, len(plaintext), chunk)] or [b""]
    body = salt + record_size.to_bytes(4, "big") + bytes([len(as_public)]) + as_public
    for sequence, piece in enumerate(pieces):
        last = sequence == len(pieces) - 1
        padding = min(3, chunk - len(piece)) if last else 0
        record_nonce = (int.from_bytes(nonce, "big") ^ sequence).to_bytes(12, "big")
        body += AESGCM(cek).encrypt(record_nonce, piece + (b"\x02" if last else b"\x01") + bytes(padding), None)
    return {"p": body}


def aesgcm(plaintext, ua_public, auth):
    """draft-ietf-webpush-encryption-04 §3: one record, 2-byte padding length, zeros, data."""
    sender = ec.generate_private_key(ec.SECP256R1())
    as_public = public_bytes(sender)
    secret = sender.exchange(ec.ECDH(), ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), ua_public))
    ikm = hkdf(auth, secret, b"Content-Encoding: auth\x00", 32)
    context = b"P-256\x00" + len(ua_public).to_bytes(2, "big") + ua_public + len(as_public).to_bytes(2, "big") + as_public
    salt = os.urandom(16)
    cek = hkdf(salt, ikm, b"Content-Encoding: aesgcm\x00" + context, 16)
    nonce = hkdf(salt, ikm, b"Content-Encoding: nonce\x00" + context, 12)
    padded = (5).to_bytes(2, "big") + bytes(5) + plaintext
    return {"p": AESGCM(cek).encrypt(nonce, padded, None), "s": salt, "k": as_public}


def main():
    coding, encoding, record_size, plaintext = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4].encode()
    receiver = ec.generate_private_key(ec.SECP256R1())
    auth = os.urandom(16)
    ua_public = public_bytes(receiver)
    fields = aes128gcm(plaintext, ua_public, auth, record_size) if coding == "aes128gcm" else aesgcm(plaintext, ua_public, auth)
    write = z85 if encoding == "z85" else b64url
    keys = {"privateKey": b64url(receiver.private_numbers().private_value.to_bytes(32, "big")), "auth": b64url(auth)}
    print(json.dumps({"keys": keys, "payload": {k: write(v) for k, v in fields.items()}}))


main()
