/**
 * Run control of a local run from its own terminal (the interrupt question's `p`): the request is
 * recorded on the job's lock the run holds in this process, where its next safe point reads it
 * (lib/control/requests.ts). A request made before the plan has named the job is recorded as soon
 * as it does, as the engine does with a cancel.
 */
import type { ControlRequest } from '../../control/requests';
import type { JobLock, LockKey } from '../../stores/job-lock';
import type { WorkflowState } from '../../workflow/payloads';

/** Records requests for one local run on `lock`. */
export class LocalRunControl {
  private held: { key: LockKey; runId: string } | undefined;
  private wanted: ControlRequest | undefined;

  public constructor(private readonly lock: Pick<JobLock, 'requestControl'>) {}

  /** A state's output: once it names the job and the run, a request waiting for them is recorded. */
  public async stateExited(output: unknown): Promise<void> {
    const state = output as Partial<WorkflowState> | null;
    if (this.held !== undefined || !state?.plan || !state.run) return;
    this.held = { key: { namespace: state.plan.namespace, jobId: state.plan.jobId }, runId: state.run.runId };
    const wanted = this.wanted;
    this.wanted = undefined;
    if (wanted !== undefined) await this.request(wanted);
  }

  /** Records `request` for the run (or keeps it until the plan names the job). */
  public async request(request: ControlRequest): Promise<void> {
    if (this.held === undefined) {
      this.wanted = request;
      return;
    }
    await this.lock.requestControl(this.held.key, this.held.runId, request);
  }
}
