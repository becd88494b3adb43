import 'package:flutter_local_notifications/flutter_local_notifications.dart';

import '../l10n/l10n.dart';

class RideOffer {
  static const categoryId = 'ride-offer';
  static const acceptId = 'ride-accept';
  static const declineId = 'ride-decline';

  static DarwinNotificationCategory category(AppLocalizations l10n) => DarwinNotificationCategory(
        categoryId,
        actions: <DarwinNotificationAction>[
          DarwinNotificationAction.plain(acceptId, l10n.rideAccept, options: <DarwinNotificationActionOption>{
            DarwinNotificationActionOption.foreground,
          }),
          DarwinNotificationAction.plain(declineId, l10n.rideDecline, options: {DarwinNotificationActionOption.destructive}),
        ],
        options: <DarwinNotificationCategoryOption>{DarwinNotificationCategoryOption.hiddenPreviewShowTitle},
      );
}

final chatCategory = DarwinNotificationCategory(
  'driver-chat',
  actions: [
    DarwinNotificationAction.text('driver-reply', 'Reply', buttonTitle: 'Send', placeholder: 'Message your driver'),
  ],
);

DarwinInitializationSettings darwinSettings(AppLocalizations l10n) => DarwinInitializationSettings(
      notificationCategories: [RideOffer.category(l10n), chatCategory, DarwinNotificationCategory(zoneCategoryId())],
    );
