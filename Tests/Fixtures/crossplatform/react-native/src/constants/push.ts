// Identifiers shared with the notification service extension.
export const CATEGORY = 'ROOM_MESSAGE';
export const REPLY_ACTION = 'ROOM_REPLY';
export const MUTE_ACTION = 'ROOM_MUTE';

export default {
    CATEGORY,
    REPLY_ACTION,
    MUTE_ACTION,
};
