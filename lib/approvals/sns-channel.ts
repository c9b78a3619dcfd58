/**
 * An SNS topic (e-mail subscribers and anything else SNS delivers to): each message is published
 * as plain text; an update is published as a new message whose subject says so.
 */
import { PublishCommand, type SNSClient } from '@aws-sdk/client-sns';
import { type ChatChannel, type ChatMessage, type MessageRef, renderPlainText } from './message';

/** SNS subjects are at most 100 characters, ASCII without line breaks. */
const SUBJECT_MAX = 100;

const subjectOf = (text: string) =>
  text.replace(/[^\x20-\x7e]/g, '').slice(0, SUBJECT_MAX) || 'nomad-restart';

/** An SNS topic as a chat channel. */
export class SnsChannel implements ChatChannel {
  public readonly name = 'sns';
  public readonly threads = false;

  public constructor(
    private readonly client: SNSClient,
    private readonly topicArn: string,
  ) {}

  public async post(message: ChatMessage): Promise<MessageRef> {
    return this.publish(message.title, message);
  }

  public async update(_ref: MessageRef, message: ChatMessage): Promise<MessageRef> {
    return this.publish(`Update: ${message.title}`, message);
  }

  private async publish(subject: string, message: ChatMessage): Promise<MessageRef> {
    const out = await this.client.send(
      new PublishCommand({
        TopicArn: this.topicArn,
        Subject: subjectOf(subject),
        Message: renderPlainText(message),
      }),
    );
    return { channel: this.topicArn, ts: out.MessageId ?? '' };
  }
}
