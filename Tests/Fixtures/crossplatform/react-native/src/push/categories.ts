import {Notifications, NotificationAction, NotificationCategory} from 'react-native-notifications';
import {defineMessages} from 'react-intl';

import {Push} from '@app/constants';

const messages = defineMessages({
    reply: {id: 'push.reply', defaultMessage: 'Reply'},
    send: {id: 'push.send', defaultMessage: 'Send'},
});

class PushSetup {
    makeRoomCategory = () => {
        const reply = new NotificationAction(Push.REPLY_ACTION, 'background', translate(messages.reply.id), true,
            {buttonTitle: translate(messages.send.id), placeholder: 'Message the room…'});
        const mute = new NotificationAction(Push.MUTE_ACTION, 'foreground', 'Mute for an hour', false);
        return new NotificationCategory(Push.CATEGORY, [reply, mute]);
    };

    register() {
        const category = this.makeRoomCategory();
        Notifications.setCategories([category]);
    }

    registerFromServer(serverCategories: NotificationCategory[]) {
        Notifications.setCategories(serverCategories);
    }
}

export default new PushSetup();
