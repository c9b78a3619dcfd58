/**
 * The observer a Nomad client can be given (`NomadClientConfig.observer`), for callers above the
 * HTTP layer (the terminal's status line): lib/http's, named where the client's users look.
 */
export {
  type RequestObserver,
  type SlowRequest,
  type SlowRequestProps,
  slowRequestObserver,
} from '../http/request-observer';
