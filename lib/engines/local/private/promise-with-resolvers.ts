/**
 * `Promise.withResolvers` for Node 20.
 *
 * aws-local-stepfunctions 3.x calls `Promise.withResolvers()` (ES2024, Node 22) in every Task
 * state to race the task against its timeout. This project runs on Node 20, where the method
 * does not exist, so without this shim every Task state would fail with a TypeError. It is
 * imported first by the runner and does nothing on runtimes that already have the method.
 * Delete this file once Node 22 is the minimum.
 */

interface Resolvers<T> {
  promise: Promise<T>;
  resolve: (value: T | PromiseLike<T>) => void;
  reject: (reason?: unknown) => void;
}

const promiseConstructor = Promise as unknown as { withResolvers?: <T>() => Resolvers<T> };

if (typeof promiseConstructor.withResolvers !== 'function') {
  Object.defineProperty(Promise, 'withResolvers', {
    configurable: true,
    writable: true,
    value: function withResolvers<T>(): Resolvers<T> {
      let resolve: Resolvers<T>['resolve'] = () => undefined;
      let reject: Resolvers<T>['reject'] = () => undefined;
      const promise = new Promise<T>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      return { promise, resolve, reject };
    },
  });
}
