/** The GraphQL schema (SDL): the spec's query, mutation and subscription, with their types. */
export const typeDefs = /* GraphQL */ `
  scalar JSON

  type Category {
    id: ID!
    name: String!
  }

  type NamedItem {
    name: String!
  }

  type PipelineParameter {
    name: String!
    description: String!
    type: String!
    default: JSON
    required: Boolean!
    choices: [JSON!]
    min: Float
    max: Float
    validation: String
  }

  type Requirements {
    minSamples: Int!
    "null: no bound; 0: the version runs on its file parameters and takes no samples"
    maxSamples: Int
    requiredDataTypes: [String!]!
    supportedOrganisms: [String!]!
  }

  type PipelineVersion {
    id: ID!
    version: String!
    isLatest: Boolean!
    canRun: Boolean!
    reason: String
    engine: String!
    parameters: [PipelineParameter!]!
    requirements: Requirements!
  }

  type PipelineRef {
    id: ID
    name: String!
  }

  type Pipeline {
    id: ID!
    name: String!
    description: String!
    category: Category!
    estimatedRuntime: String!
    upstreamPipelines: [PipelineRef!]!
    versions: [PipelineVersion!]!
    requiredDataTypes: [NamedItem!]!
    supportedOrganisms: [NamedItem!]!
  }

  type VersionRef {
    id: ID!
    version: String!
  }

  type SampleRef {
    id: ID!
    name: String
  }

  type ProcessResources {
    cpuPercent: Float
    memoryGb: Float
  }

  type ProcessExecution {
    process: String!
    status: String!
    progress: Float!
    startTime: String
    endTime: String
    exitCode: Int
    resources: ProcessResources!
  }

  type LogEntry {
    id: ID!
    timestamp: String!
    process: String!
    message: String!
    level: String!
  }

  type OutputFile {
    id: ID!
    filename: String!
    size: Float!
    dataType: String!
    path: String
  }

  "Whether the caller may do something to an execution, and why not."
  type ActionState {
    allowed: Boolean!
    reason: String
  }

  type Execution {
    id: ID!
    name: String!
    status: String!
    progress: Float!
    created: String!
    started: String
    finished: String
    duration: Float
    pipeline: PipelineRef!
    pipelineVersion: VersionRef!
    samples: [SampleRef!]!
    parameters: JSON
    metadata: JSON
    priority: String!
    testMode: Boolean!
    upstreamExecution: ID
    "The execution this one re-runs."
    rerunOf: ID
    resumes: Int!
    rerun: ActionState!
    resume: ActionState!
    error: String
    processExecutions: [ProcessExecution!]!
    outputs: [OutputFile!]!
    logs: [LogEntry!]!
  }

  "SNAPSHOT is the current state, sent first; the others carry one change each."
  enum ExecutionUpdateKind {
    SNAPSHOT
    STATUS
    PROGRESS
    PROCESS
    LOG
  }

  type ExecutionUpdate {
    id: ID!
    kind: ExecutionUpdateKind!
    sequence: Int!
    status: String!
    progress: Float!
    error: String
    "All processes in a SNAPSHOT; the changed process in a PROCESS update; empty otherwise."
    processExecutions: [ProcessExecution!]!
    "The latest entries in a SNAPSHOT; the new entry in a LOG update; empty otherwise."
    logs: [LogEntry!]!
  }

  input RunResourcesInput {
    cpus: Int
    memory: String
    queue: String
    timeLimit: String
  }

  input RunPipelineInput {
    pipelineVersionId: ID!
    name: String
    samples: [ID!]
    parameters: JSON
    metadata: JSON
    upstreamExecution: ID
    priority: String
    resources: RunResourcesInput
    testMode: Boolean
    groupOwner: String
  }

  "What a re-run changes; everything absent is taken from the execution it repeats."
  input RerunExecutionInput {
    name: String
    samples: [ID!]
    parameters: JSON
    metadata: JSON
    priority: String
    resources: RunResourcesInput
    testMode: Boolean
    groupOwner: String
  }

  type Query {
    pipelines: [Pipeline!]!
    pipeline(id: ID!): Pipeline
    execution(id: ID!): Execution
  }

  type Mutation {
    runPipeline(input: RunPipelineInput): Execution!
    cancelExecution(id: ID!): Execution!
    "A new execution with the same version, samples, parameters and resources (changed by input)."
    rerunExecution(id: ID!, input: RerunExecutionInput): Execution!
    "Continues a failed or interrupted execution on its kept work folder (Snakemake, Nextflow)."
    resumeExecution(id: ID!): Execution!
    "WebSocket only: a fresh access token (or API key) of the same account keeps the socket open past the first one's expiry."
    reauthenticate(token: String!): SocketSession!
  }

  "The credential a WebSocket now holds."
  type SocketSession {
    "When the socket closes unless re-authenticated again (ISO-8601); null for a credential without expiry."
    expiresAt: String
  }

  type Subscription {
    executionUpdates(id: ID!): ExecutionUpdate!
  }
`;
