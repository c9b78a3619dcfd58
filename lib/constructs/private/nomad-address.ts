/**
 * What makes an address one the Lambda functions can reach Nomad at, checked once for the CDK
 * context (`-c nomadAddress=…`) and for the constructs' `nomadAddress` prop, each wording the
 * problem its own way.
 */
import { isIP } from 'node:net';
import { Token, ValidationError } from 'aws-cdk-lib';
import type { Construct } from 'constructs';

/** An address that passes: what the messages show as an example. */
export const NOMAD_ADDRESS_EXAMPLE = 'https://nomad.example.internal:4646';

/** Host names that always mean "this machine", which a Lambda function is not. */
function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return isIP(bare) === 6 && (bare === '::1' || bare === '0:0:0:0:0:0:0:1');
}

/**
 * Why `value` cannot be Nomad's address as the Lambda functions reach it, phrased to follow the
 * setting's name (`nomadAddress is required: …`), or `undefined` when it can be: required, an
 * http(s) URL, and not a loopback address.
 */
export function nomadAddressProblem(value: string | undefined): string | undefined {
  if (value === undefined || value === '') {
    return 'is required: the address the Lambda functions reach Nomad at';
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `is not a URL: "${value}"`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `must be http(s), got "${value}"`;
  if (isLoopback(url.hostname)) {
    return `is "${value}", a loopback address the Lambda functions can never reach; give Nomad's address as they see it`;
  }
  return undefined;
}

/**
 * Refuses a `nomadAddress` prop the functions could never reach Nomad at, naming the prop and
 * quoting the value; a token (an address resolved at deploy time) is left to the deployment.
 */
export function validateNomadAddressProp(scope: Construct, value: string | undefined): void {
  if (value !== undefined && Token.isUnresolved(value)) return;
  const problem = nomadAddressProblem(value);
  if (problem === undefined) return;
  throw new ValidationError(
    'InvalidNomadAddress' as ConstructorParameters<typeof ValidationError>[0],
    `nomadAddress ${problem}, e.g. nomadAddress: '${NOMAD_ADDRESS_EXAMPLE}'`,
    scope,
  );
}
