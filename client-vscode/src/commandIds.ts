// The extension's own command ids. They live under `scorelens.client.` because the server's commands
// (`scorelens.pair`, `scorelens.report`, …) are registered by vscode-languageclient itself.
// No `vscode` import: a unit test checks these against package.json.
export const ClientCommand = {
  restartServer: 'scorelens.client.restartServer',
  showServerLog: 'scorelens.client.showServerLog',
  installServer: 'scorelens.client.installServer',
  pairWithReference: 'scorelens.client.pairWithReference',
  unpair: 'scorelens.client.unpair',
  openReferenceBeside: 'scorelens.client.openReferenceBeside',
  diffWithReference: 'scorelens.client.diffWithReference',
  showReport: 'scorelens.client.showReport',
  compareSystems: 'scorelens.client.compareSystems',
  pickSystems: 'scorelens.client.pickSystems',
  toggleLineScoreHints: 'scorelens.client.toggleLineScoreHints',
  toggleMissingWordHints: 'scorelens.client.toggleMissingWordHints',
  toggleSubstitutionHints: 'scorelens.client.toggleSubstitutionHints',
  selectMetrics: 'scorelens.client.selectMetrics',
} as const;
