/**
 * The schema of Flow's legacy GraphQL API as flowbio's `Client` (FLOW-WIRE.md §6) selects it:
 * every field its queries name exists here (GraphQL validation refuses unknown ones), and fields
 * this service has no value for resolve to null. Reference types (`…Ref`) stop the nesting, so a
 * document's depth is bounded by the schema itself. Its own schema, separate from /api's: Flow's
 * `runPipeline(id, params…)` clashes with Laneway's `runPipeline(input:)`.
 */
export const legacyTypeDefs = /* GraphQL */ `
  scalar Upload
  scalar JSONString

  type Query {
    accessToken: String
    user(username: String!): UserRef
    data(id: ID): Data
    sample(id: ID!): Sample
    execution(id: ID!): Execution
    pipelineCategories: [PipelineCategory!]!
  }

  type Mutation {
    login(username: String!, password: String!): LoginAnswer
    uploadData(blob: Upload!, isLast: Boolean!, expectedFileSize: Float!, data: ID, filename: String!): UploadAnswer
    uploadAnnotationData(
      blob: Upload!
      isLast: Boolean!
      expectedFileSize: Float!
      data: ID
      filename: String!
      ignoreWarnings: Boolean
    ): UploadAnswer
    uploadMultiplexedData(
      blob: Upload!
      isLast: Boolean!
      expectedFileSize: Float!
      data: ID
      filename: String!
    ): UploadAnswer
    runPipeline(
      id: ID!
      params: JSONString!
      dataParams: JSONString!
      sampleParams: JSONString!
      nextflowVersion: String!
      genome: ID
    ): RunAnswer
  }

  type LoginAnswer {
    accessToken: String!
  }
  type UploadAnswer {
    dataId: ID
  }
  type RunAnswer {
    execution: ExecutionRef!
  }

  type UserRef {
    id: ID!
    username: String!
    name: String
  }
  type NamedRef {
    id: ID
    name: String
  }
  type OrganismRef {
    id: ID
    name: String
  }
  type GenomeRef {
    id: ID
    name: String
    organism: OrganismRef
  }
  type DataRef {
    id: ID!
    filename: String!
  }
  type OwnerName {
    name: String
  }
  type PipelineRef {
    id: ID!
    name: String!
  }
  type PipelineVersionRef {
    id: ID!
    pipeline: PipelineRef!
  }
  type ExecutionRef {
    id: ID!
    pipelineVersion: PipelineVersionRef
  }
  type ProcessExecutionRef {
    id: ID!
    processName: String
    execution: ExecutionRef
  }

  type Data {
    id: ID!
    filename: String!
    filetype: String
    size: Float
    category: String
    created: Float
    isDirectory: Boolean!
    isBinary: Boolean!
    private: Boolean!
    upstreamProcessExecution: ProcessExecutionRef
    sample: NamedRef
    project: NamedRef
    owner: UserRef
    genome: GenomeRef
    genomeFasta: GenomeRef
    genomeGtf: GenomeRef
  }

  type InitialData {
    id: ID!
    created: Float
    data: DataRef!
  }

  type Sample {
    id: ID!
    name: String!
    private: Boolean!
    created: Float
    sampleType: String
    owner: UserRef
    initialData: [InitialData!]!
    organism: OrganismRef
    project: NamedRef
    strandedness: String
    rnaSelectionMethod: String
    pubmed: String
  }

  type OutputData {
    id: ID!
    filename: String!
    filetype: String
    size: Float
    created: Float
    owner: OwnerName
    isRemoved: Boolean!
  }

  type ProcessExecution {
    id: ID!
    identifier: String
    name: String
    processName: String
    started: Float
    finished: Float
    stdout: String
    stderr: String
    bash: String
    status: String
    exitCode: Int
    upstreamData: [DataRef!]!
    upstreamSamples: [NamedRef!]!
    downstreamData: [OutputData!]!
  }

  type PipelineVersion {
    id: ID!
    name: String!
    description: String
    schema: String
    pipeline: PipelineRef!
  }

  type Execution {
    id: ID!
    pipelineVersion: PipelineVersion
    nextflowVersion: String
    forcedPublicProjectId: ID
    forcedPublicSampleId: ID
    canEdit: Boolean!
    canShare: Boolean!
    created: Float
    started: Float
    finished: Float
    taskStarted: Float
    taskFinished: Float
    identifier: String
    private: Boolean!
    hasReport: Boolean!
    params: String
    dataParams: String
    sampleParams: String
    stdout: String
    stderr: String
    status: String
    dependent: Boolean
    command: String
    log: String
    upstreamData: [DataRef!]!
    owner: UserRef
    upstreamSamples: [NamedRef!]!
    genome: GenomeRef
    sample: NamedRef
    project: NamedRef
    processExecutions: [ProcessExecution!]!
  }

  type VersionSummary {
    id: ID!
    name: String!
  }
  type PipelineSummary {
    name: String!
    version: VersionSummary
  }
  type PipelineSubcategory {
    name: String!
    pipelines: [PipelineSummary!]!
  }
  type PipelineCategory {
    name: String!
    subcategories: [PipelineSubcategory!]!
  }
`;
