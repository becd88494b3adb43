import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP(S) download through URLSession, held in memory and stopped at `cap` bytes (not
/// after). Redirects must stay on allowed hosts. `cancel()` ends it early (on expiry).
final class Download: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    enum Failure: Error, Equatable {
        case http(Int), tooLarge(Int), hostNotAllowed(String), transport(String), cancelled
    }

    private let lock = NSLock()
    private let done = DispatchSemaphore(value: 0)
    private let cap: Int
    private let isAllowed: @Sendable (URL) -> Bool
    private var body: [UInt8] = []
    private var failure: Failure?
    private var received = 0
    private(set) var contentType: String?
    private var task: URLSessionTask?
    private var session: URLSession?

    init(cap: Int, isAllowed: @escaping @Sendable (URL) -> Bool) {
        self.cap = cap
        self.isAllowed = isAllowed
    }

    /// Blocks until the body is in; returns it.
    func run(_ url: URL, timeout: Double) throws(Failure) -> [UInt8] {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = max(0.1, timeout)
        configuration.timeoutIntervalForResource = max(0.1, timeout)
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
        lock.withLock {
            self.session = session
            task = session.dataTask(with: url)
            task?.resume()
        }
        done.wait()
        session.finishTasksAndInvalidate()
        if let failure = lock.withLock({ self.failure }) { throw failure }
        return lock.withLock { body }
    }

    func cancel() {
        lock.withLock {
            if failure == nil { failure = .cancelled }
            task?.cancel()
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let http = response as? HTTPURLResponse
        contentType = http?.value(forHTTPHeaderField: "Content-Type")
        if let status = http?.statusCode, !(200..<300).contains(status) { stop(.http(status)); completionHandler(.cancel); return }
        if response.expectedContentLength > Int64(cap) { stop(.tooLarge(Int(response.expectedContentLength))); completionHandler(.cancel); return }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock()
        defer { lock.unlock() }
        guard failure == nil else { return }
        if received + data.count > cap {
            failure = .tooLarge(received + data.count)
            task?.cancel()
            return
        }
        received += data.count
        body += data
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        guard let url = request.url, isAllowed(url) else {
            // Answering nil ends the task with the redirect response; cancelling here as well
            // makes FoundationNetworking resolve the redirect twice and trap.
            lock.withLock { if failure == nil { failure = .hostNotAllowed(request.url?.absoluteString ?? "?") } }
            completionHandler(nil)
            return
        }
        completionHandler(request)
    }

    /// A transport error in words that do not change from run to run (curl's own text carries
    /// timings, which would make two renders of the same inputs differ).
    static func describe(_ error: Error) -> String {
        guard let e = error as? URLError else { return error.localizedDescription }
        switch e.code {
        case .cannotConnectToHost: return "could not connect to the server"
        case .cannotFindHost, .dnsLookupFailed: return "host not found"
        case .timedOut: return "timed out"
        case .networkConnectionLost: return "the connection was lost"
        case .notConnectedToInternet: return "no network"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
            return "the TLS connection failed"
        case .badServerResponse: return "bad server response"
        case .cancelled: return "cancelled"
        default: return "network error \(e.code.rawValue)"
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        lock.withLock {
            if failure == nil, let error { failure = .transport(Self.describe(error)) }
            if failure == nil, let http = task.response as? HTTPURLResponse, (300..<400).contains(http.statusCode) {
                failure = .http(http.statusCode) // a redirect that was not followed
            }
        }
        done.signal()
    }

    private func stop(_ f: Failure) {
        lock.withLock {
            if failure == nil { failure = f }
            task?.cancel()
        }
    }
}
