// Scenario: one snapshot of the synthesized template, kept for reviewing diffs of the deployed
// shape. Asset hashes are replaced so that a change in handler code alone does not churn it.
import { synthStack } from './helpers/synth';

describe('NomadRestartStack', () => {
  describe('template', () => {
    it('matches the reviewed snapshot', () => {
      // Arrange
      const { template } = synthStack();

      // Act
      const json = JSON.stringify(template.toJSON(), null, 2).replace(
        /[0-9a-f]{64}(\.zip)?/g,
        '<asset-hash>',
      );

      // Assert
      expect(JSON.parse(json)).toMatchSnapshot();
    });
  });
});
