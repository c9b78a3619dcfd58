export { createScaledClock } from './clock';
export {
  SimControlError,
  SimError,
  SimHttpError,
  SimListenError,
  SimScenarioError,
  SimWaitTimeoutError,
} from './errors';
export {
  bundledFleetScenario,
  FLEET_TEAMS,
  FLEET_TOKENS,
  type FleetScenarioOptions,
  fleetScenario,
} from './fleet-scenario';
export { bundledRotationScenario, ROTATION } from './rotation-scenario';
export { decodeScenario, demoScenario, loadScenarioFile } from './scenario';
export { SIM_HOST, startSimulator } from './simulator';
export type {
  AclSpec,
  AclTokenSpec,
  Fault,
  LatencyFault,
  NodePoolSpec,
  NodeSpec,
  NoLeaderFault,
  RequestLogEntry,
  RequestRates,
  RequestTrigger,
  ResetFault,
  RunningSimulator,
  Scenario,
  ScenarioVariable,
  SimCheckBehaviour,
  SimCheckRun,
  SimClock,
  SimConsulAclSpec,
  SimConsulCheckScript,
  SimConsulControl,
  SimConsulTokenSpec,
  SimControl,
  SimCrash,
  SimStateView,
  SimTarget,
  SimTiming,
  SimulatorOptions,
  StateFilter,
  StatusFault,
  VariablesApi,
} from './types';
