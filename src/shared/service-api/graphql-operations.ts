/**
 * GraphQL operations the clients send, as text (free of the schema library, so the renderer's
 * bundle does not carry it). What each pushes is typed in graphql.ts (ExecutionUpdate).
 */

/** Follows one execution: status, progress, processes and log lines as they change. */
export const EXECUTION_UPDATES_SUBSCRIPTION = `subscription Follow($id: ID!) {
  executionUpdates(id: $id) {
    id status progress
    processExecutions { process status progress startTime endTime }
    logs { timestamp process message level }
  }
}`;
