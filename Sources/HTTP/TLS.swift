import CHTTP
import ConfinedFiles
import Foundation

/// The server's certificate and key, loaded into a TLS context that speaks HTTP/2 only.
public final class TLSIdentity: @unchecked Sendable {
    let context: OpaquePointer
    /// SHA-256 of the certificate, as `AB:CD:…` (what a person compares with their client's).
    public let fingerprint: String

    public struct Failure: Error, CustomStringConvertible { public var description: String }

    /// `--tls-cert` and `--tls-key`: files the person named.
    public convenience init(certificate: URL, key: URL) throws(Failure) {
        let cert: OpenFile, secret: OpenFile
        do { (cert, secret) = (try TrustedFiles.open(certificate), try TrustedFiles.open(key)) } catch { throw Failure(description: error.description) }
        try self.init(certificate: cert, key: secret)
    }

    /// The files come open (OpenSSL reads them by their descriptors' paths).
    public init(certificate: OpenFile, key: OpenFile) throws(Failure) {
        guard let context = chttp_tls_context() else { throw Failure(description: "TLS: \(Self.lastError())") }
        guard SSL_CTX_use_certificate_chain_file(context, certificate.path) == 1 else {
            SSL_CTX_free(context)
            throw Failure(description: "\(certificate.name): not a PEM certificate (\(Self.lastError()))")
        }
        guard SSL_CTX_use_PrivateKey_file(context, key.path, SSL_FILETYPE_PEM) == 1, SSL_CTX_check_private_key(context) == 1 else {
            SSL_CTX_free(context)
            throw Failure(description: "\(key.name): not the PEM private key of \(URL(fileURLWithPath: certificate.name).lastPathComponent) (\(Self.lastError()))")
        }
        var digest = [UInt8](repeating: 0, count: 32)
        guard chttp_fingerprint(context, &digest) == 1 else {
            SSL_CTX_free(context)
            throw Failure(description: "\(certificate.path): no certificate")
        }
        self.context = context
        fingerprint = digest.map { String(format: "%02X", $0) }.joined(separator: ":")
    }

    deinit { SSL_CTX_free(context) }

    /// `FOLDER/server.pem` and `server-key.pem`, made on first use: a self-signed certificate for
    /// localhost, 127.0.0.1 and ::1 (and `host`, when it is another name), valid for a year and
    /// then made again.
    /// The folder is the project's `.pushpreview/tls`, held open with no link followed.
    public static func kept(in folder: ConfinedFolder, host: String) throws(Failure) -> TLSIdentity {
        func load() throws -> TLSIdentity { try TLSIdentity(certificate: try folder.open("server.pem"), key: try folder.open("server-key.pem")) }
        if let made = try? load(), !made.expiresWithin(days: 7) { return made }
        var names = ["DNS:localhost", "IP:127.0.0.1", "IP:::1"]
        if !["localhost", "127.0.0.1", "::1", "0.0.0.0", "::"].contains(host) {
            names.append((host.allSatisfy { $0.isHexDigit || $0 == "." || $0 == ":" } ? "IP:" : "DNS:") + host)
        }
        do {
            let key = try folder.create("server-key.pem", mode: 0o600), certificate = try folder.create("server.pem")
            guard chttp_make_certificate(key.fileDescriptor, certificate.fileDescriptor, "pushpreview serve", names.joined(separator: ","), 365) == 1 else {
                throw Failure(description: "could not make a certificate in \(folder.url.path): \(lastError())")
            }
            try key.close()
            try certificate.close()
            return try load()
        } catch let failure as Failure { throw failure } catch { throw Failure(description: "\(folder.url.path): \(error)") }
    }

    func expiresWithin(days: Int) -> Bool {
        guard let cert = SSL_CTX_get0_certificate(context) else { return true }
        var day: Int32 = 0, second: Int32 = 0
        guard ASN1_TIME_diff(&day, &second, nil, X509_get0_notAfter(cert)) == 1 else { return true }
        return day < days
    }

    /// The handshake on an accepted socket; nil when it fails (the peer is told by TLS).
    func accept(_ fd: Int32) -> TLSSocket? {
        guard let ssl = SSL_new(context) else { return nil }
        SSL_set_fd(ssl, fd)
        guard SSL_accept(ssl) == 1, String(cString: chttp_alpn(ssl)) == "h2" else {
            SSL_free(ssl)
            return nil
        }
        return TLSSocket(ssl: ssl, fd: fd)
    }

    static func lastError() -> String {
        let code = ERR_get_error()
        guard code != 0 else { return "no detail" }
        var text = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &text, text.count)
        ERR_clear_error()
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A connection's bytes, in the clear or through TLS. `close` ends the TLS session; the socket
/// is closed by the server, which owns it.
protocol ByteStream: AnyObject {
    var fd: Int32 { get }
    /// Bytes already read and buffered (TLS records), which poll would not show.
    var buffered: Bool { get }
    func read(_ buffer: UnsafeMutableRawBufferPointer) -> Int
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool
    func close()
}

final class PlainSocket: ByteStream {
    let fd: Int32
    init(fd: Int32) { self.fd = fd }
    var buffered: Bool { false }
    func read(_ buffer: UnsafeMutableRawBufferPointer) -> Int { recv(fd, buffer.baseAddress, buffer.count, 0) }
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var done = 0
        while done < bytes.count {
            let n = send(fd, bytes.baseAddress! + done, bytes.count - done, Int32(MSG_NOSIGNAL))
            guard n > 0 else { return false }
            done += n
        }
        return true
    }
    func close() {}
}

final class TLSSocket: ByteStream {
    let ssl: OpaquePointer
    let fd: Int32
    init(ssl: OpaquePointer, fd: Int32) { self.ssl = ssl; self.fd = fd }
    var buffered: Bool { SSL_pending(ssl) > 0 }
    func read(_ buffer: UnsafeMutableRawBufferPointer) -> Int { Int(SSL_read(ssl, buffer.baseAddress, Int32(buffer.count))) }
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var done = 0
        while done < bytes.count {
            let n = SSL_write(ssl, bytes.baseAddress! + done, Int32(bytes.count - done))
            guard n > 0 else { return false }
            done += Int(n)
        }
        return true
    }
    func close() {
        SSL_shutdown(ssl)
        SSL_free(ssl)
    }
}
