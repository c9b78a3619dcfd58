/**
 * Who hears an alarm: one SNS topic wired to every alarm under a construct, as the last thing
 * before synthesis, so an alarm added later (a new dead-letter queue, a new function) reaches
 * someone without anyone remembering to wire it.
 */
import { Aspects, type IAspect } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as sns from 'aws-cdk-lib/aws-sns';
import type { Construct, IConstruct } from 'constructs';

/**
 * An alarm that stays in ALARM until someone acts (messages wait in a dead-letter queue until
 * they are redriven or deleted): its return to OK is news too, so it notifies both ways. Alarms
 * on a rate (failed executions, function errors) go back to OK by themselves one period later,
 * and an OK message then would only say that time passed.
 */
export class StandingAlarm extends cloudwatch.Alarm {}

/** Adds the topic to each alarm it visits (and to OK for a {@link StandingAlarm}). */
class AlarmTopic implements IAspect {
  private readonly action: SnsAction;

  public constructor(topic: sns.ITopic) {
    this.action = new SnsAction(topic);
  }

  public visit(node: IConstruct): void {
    if (!(node instanceof cloudwatch.Alarm)) return;
    node.addAlarmAction(this.action);
    if (node instanceof StandingAlarm) node.addOkAction(this.action);
  }
}

/**
 * Sends every CloudWatch alarm under `scope` to `topic` when it goes to ALARM (and, for a
 * {@link StandingAlarm}, back to OK). Call it once per tree: a second call on the same scope or
 * an ancestor would add the topic twice.
 */
export function notifyAlarmsTo(scope: Construct, topic: sns.ITopic): void {
  Aspects.of(scope).add(new AlarmTopic(topic));
}
