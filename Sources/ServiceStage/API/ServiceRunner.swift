import Foundation

/// Plays the system's part for a service extension (reference §3): calls `didReceive` on a
/// thread of its own, calls `serviceExtensionTimeWillExpire()` on another thread shortly before
/// the budget runs out, and shows the original content when the handler was never called.
public enum ServiceRunner {
    public struct Outcome: @unchecked Sendable {
        /// What is shown: the delivered content, or the original.
        public var content: UNNotificationContent
        /// The handler was called within the budget.
        public var delivered: Bool
        /// Delivered only after `serviceExtensionTimeWillExpire()`.
        public var deliveredOnExpiry: Bool
        public var seconds: Double
    }

    /// How long before the end `serviceExtensionTimeWillExpire()` is called.
    public static func expiryLead(budget: Double) -> Double { min(1, budget / 10) }

    public static func run(_ extensionInstance: UNNotificationServiceExtension, request: UNNotificationRequest, budget: Double) -> Outcome {
        let start = Date()
        let delivery = Delivery()
        // The system calls an extension from several threads; iOS extensions are not Sendable.
        let instance = Unchecked(extensionInstance)
        Thread { instance.value.didReceive(request) { delivery.deliver($0) } }.start()

        let expiry = max(0, budget - expiryLead(budget: budget))
        if let content = delivery.wait(until: start.addingTimeInterval(expiry)) {
            return Outcome(content: content, delivered: true, deliveredOnExpiry: false, seconds: Date().timeIntervalSince(start))
        }
        Thread { instance.value.serviceExtensionTimeWillExpire() }.start()
        if let content = delivery.wait(until: start.addingTimeInterval(budget)) {
            return Outcome(content: content, delivered: true, deliveredOnExpiry: true, seconds: Date().timeIntervalSince(start))
        }
        delivery.close()
        return Outcome(content: request.content, delivered: false, deliveredOnExpiry: false, seconds: Date().timeIntervalSince(start))
    }

    struct Unchecked<T>: @unchecked Sendable { let value: T; init(_ v: T) { value = v } }

    /// The content handler's state: the first call wins, calls after the end are ignored.
    final class Delivery: @unchecked Sendable {
        private let condition = NSCondition()
        private var content: UNNotificationContent?
        private var closed = false

        func deliver(_ c: UNNotificationContent) {
            condition.lock()
            defer { condition.unlock() }
            guard content == nil, !closed else { return }
            content = c.copy() as? UNNotificationContent
            condition.broadcast()
        }

        func wait(until deadline: Date) -> UNNotificationContent? {
            condition.lock()
            defer { condition.unlock() }
            while content == nil, condition.wait(until: deadline) {}
            return content
        }

        func close() {
            condition.lock()
            closed = true
            condition.unlock()
        }
    }
}
