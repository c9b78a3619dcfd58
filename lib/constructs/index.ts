/**
 * The constructs a CDK app imports from the package (`import { NomadRestartStack } from
 * 'nomad-restart'`): the stack, the reusable workflow, a scheduled restart, the approval
 * channels, the run notifications and the runs' dashboard, with their props.
 */
export {
  ApprovalChannels,
  type ApprovalChannelsProps,
  type ApprovalChannelsResources,
  type SlackApprovalProps,
  type WebhookApprovalProps,
} from './approval-channels';
export { NomadRestartDashboard, type NomadRestartDashboardProps } from './nomad-restart-dashboard';
export { type FleetOperatorUse, NomadRestartFleet, type NomadRestartFleetProps } from './nomad-restart-fleet';
export {
  NomadRestartSchedule,
  type NomadRestartScheduleProps,
  type ScheduledFleetInput,
  type ScheduledRestartInput,
} from './nomad-restart-schedule';
export {
  NomadRestartStack,
  type NomadRestartStackProps,
  type SecretReference,
  type SlackApprovalReferences,
  type VpcPlacementIds,
  type WebhookApprovalReferences,
} from './nomad-restart-stack';
export {
  NomadRestartWorkflow,
  type NomadRestartWorkflowProps,
  type OperatorUse,
} from './nomad-restart-workflow';
export { RunNotifications, type RunNotificationsProps } from './run-notifications';
export { StackContextError, stackPropsFromContext } from './stack-context';
