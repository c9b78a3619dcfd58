import { decodeManifest, decodeResultFile, manifestKeyOf } from '../../lib/fleet/map-results';
import { failed, item, resultDocuments, succeeded } from './helpers/map-results';

const web = item('payments', 'web', 1, 2);
const api = item('payments', 'api', 2, 2);

describe('map results', () => {
  describe('manifestKeyOf', () => {
    it("reads the manifest's key from the Map's output, and nothing from a Map that left none", () => {
      // Arrange
      const { mapResult, manifestKey } = resultDocuments('fleets/r/results', {});

      // Act / Assert
      expect(manifestKeyOf(mapResult)).toBe(manifestKey);
      expect(manifestKeyOf(undefined)).toBeUndefined();
    });
  });

  describe('decodeManifest', () => {
    it('lists the result files by status, as AWS writes them', () => {
      // Arrange
      const { documents, manifestKey } = resultDocuments('fleets/r/results', {
        SUCCEEDED: [[succeeded(web, {})]],
        FAILED: [[failed(api, 'RestartFailed', 'boom')]],
      });

      // Act
      const manifest = decodeManifest(documents.get(manifestKey), manifestKey);

      // Assert
      expect(manifest.ResultFiles.SUCCEEDED.map((f) => f.Key)).toEqual([
        expect.stringMatching(/^fleets\/r\/results\/[0-9a-f-]+\/SUCCEEDED_0\.json$/),
      ]);
      expect(manifest.ResultFiles.FAILED).toHaveLength(1);
      expect(manifest.ResultFiles.PENDING).toEqual([]);
    });

    it('refuses a document that is no manifest, naming it', () => {
      // Act / Assert
      expect(() => decodeManifest({ Files: [] }, 'k/manifest.json')).toThrow(
        'k/manifest.json: not a ResultWriter manifest (no ResultFiles)',
      );
    });
  });

  describe('decodeResultFile', () => {
    it('keeps the fields the summary reads', () => {
      // Act
      const [entry] = decodeResultFile([failed(api, 'RestartFailed', 'boom')], 'FAILED_0.json');

      // Assert
      expect(entry).toMatchObject({ Status: 'FAILED', Error: 'JobFailed' });
      expect(entry?.Input).toContain('"job":"api"');
      expect(Object.keys(entry ?? {}).sort()).toEqual(['Cause', 'Error', 'ExecutionArn', 'Input', 'Status']);
    });

    it('refuses an execution with a field of the wrong type, quoting it', () => {
      // Act / Assert
      expect(() => decodeResultFile([{ ExecutionArn: 'a', Status: 7 }], 'F.json')).toThrow(
        'F.json[0]: Status is 7, not a string',
      );
    });
  });
});
