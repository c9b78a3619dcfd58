/**
 * An answer to a task token (`states:SendTaskSuccess`/`SendTaskFailure`) is authorized on the
 * state machine whose execution issued the token (sdk-iam-actions.ts, `TASK_TOKEN_ACTIONS`): a
 * grant on that state machine allows it, a grant on another one does not, and `"*"` still does.
 */
import { evaluateIdentityRequest } from './helpers/iam-evaluator';
import { iamRequestFor } from './helpers/sdk-iam-actions';
import { DEPLOYED, type NamedPolicy } from './helpers/template-iam';

const arn = (name: string) =>
  `arn:${DEPLOYED.partition}:states:${DEPLOYED.region}:${DEPLOYED.account}:stateMachine:${name}`;
const RESTART = arn('NomadRestartFull-Restart');
const OTHER = arn('Billing-Nightly');
const ROLE = `arn:${DEPLOYED.partition}:iam::${DEPLOYED.account}:role/answerer`;

/** A role allowed to answer task tokens on `resource`, as CDK's `grantTaskResponse` writes it. */
const grantedOn = (resource: string): NamedPolicy[] => [
  {
    name: 'answers',
    policy: {
      Version: '2012-10-17',
      Statement: [
        { Effect: 'Allow', Action: ['states:SendTaskSuccess', 'states:SendTaskFailure'], Resource: resource },
      ],
    },
  },
];

/** The IAM request of `operation` answering a token an execution of `issuer` handed out. */
const answer = (operation: 'SendTaskSuccess' | 'SendTaskFailure', issuer: string) =>
  iamRequestFor(
    'SFN',
    operation,
    { taskToken: 'token-1' },
    { taskTokenIssuers: new Map([['token-1', issuer]]) },
  );

describe('answering a task token', () => {
  it.each(['SendTaskSuccess', 'SendTaskFailure'] as const)(
    'allows %s with a grant on the state machine that issued the token',
    async (operation) => {
      // Act
      const decision = await evaluateIdentityRequest(ROLE, grantedOn(RESTART), answer(operation, RESTART));

      // Assert
      expect(decision).toEqual({ allowed: true, result: 'Allowed', explanation: '' });
    },
  );

  it('denies a role granted it on another state machine, naming the statement and the grant it lacks', async () => {
    // Act
    const decision = await evaluateIdentityRequest(
      ROLE,
      grantedOn(OTHER),
      answer('SendTaskSuccess', RESTART),
    );

    // Assert
    expect(decision.allowed).toBe(false);
    expect(decision.result).toBe('ImplicitlyDenied');
    expect(decision.explanation).toContain(
      `statement {"Effect":"Allow","Action":["states:SendTaskSuccess","states:SendTaskFailure"],"Resource":"${OTHER}"} of answers names the action but not the state machine that issued the task token`,
    );
    expect(decision.explanation).toContain(
      `It would be allowed by {"Effect":"Allow","Action":"states:SendTaskSuccess","Resource":"${RESTART}"}`,
    );
  });

  it('denies a role with no grant to answer at all', async () => {
    // Arrange
    const others: NamedPolicy[] = [
      {
        name: 'starts',
        policy: { Statement: [{ Effect: 'Allow', Action: 'states:StartExecution', Resource: RESTART }] },
      },
    ];

    // Act
    const decision = await evaluateIdentityRequest(ROLE, others, answer('SendTaskFailure', RESTART));

    // Assert
    expect(decision.allowed).toBe(false);
    expect(decision.explanation).toMatch(/^no statement of the role allows the action\./);
  });

  it('allows a grant on "*", which AWS documents for these actions', async () => {
    // Act
    const decision = await evaluateIdentityRequest(ROLE, grantedOn('*'), answer('SendTaskSuccess', OTHER));

    // Assert
    expect(decision.allowed).toBe(true);
  });

  it('denies a grant on the state machine when an explicit Deny names it', async () => {
    // Arrange
    const policies: NamedPolicy[] = [
      ...grantedOn(RESTART),
      { name: 'fence', policy: { Statement: [{ Effect: 'Deny', Action: 'states:*', Resource: RESTART }] } },
    ];

    // Act
    const decision = await evaluateIdentityRequest(ROLE, policies, answer('SendTaskSuccess', RESTART));

    // Assert
    expect(decision).toMatchObject({ allowed: false, result: 'ExplicitlyDenied' });
  });
});
