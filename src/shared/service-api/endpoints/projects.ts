/** The endpoints of service/projects/projects.routes.ts. */
import { op } from '../endpoint';
import { PageQuery } from '../page';
import {
  NewProjectBody,
  Project,
  ProjectChangesBody,
  ProjectPage,
  ProjectSampleParams,
  ProjectSamplesBody,
} from '../projects';
import { IdParams } from '../resource';

export const postProjects = op({
  method: 'POST',
  path: '/api/projects/',
  operationId: 'postProjects',
  summary: 'Create a project, owned by the caller or by group_owner (a group slug)',
  tags: ['projects'],
  body: NewProjectBody,
  response: { 201: Project },
});

export const getProjects = op({
  method: 'GET',
  path: '/api/projects/',
  operationId: 'getProjects',
  summary: 'Projects the caller can see',
  tags: ['projects'],
  query: PageQuery,
  response: { 200: ProjectPage },
});

export const getProjectsById = op({
  method: 'GET',
  path: '/api/projects/:id',
  operationId: 'getProjectsById',
  summary: 'One project',
  tags: ['projects'],
  params: IdParams,
  response: { 200: Project },
});

export const putProjectsById = op({
  method: 'PUT',
  path: '/api/projects/:id',
  operationId: 'putProjectsById',
  summary: 'Update a project (needs edit permission); sample_ids replaces the list',
  tags: ['projects'],
  params: IdParams,
  body: ProjectChangesBody,
  response: { 200: Project },
});

export const deleteProjectsById = op({
  method: 'DELETE',
  path: '/api/projects/:id',
  operationId: 'deleteProjectsById',
  summary: 'Delete a project (owner or an admin of its owning group)',
  tags: ['projects'],
  params: IdParams,
});

export const postProjectsByIdSamples = op({
  method: 'POST',
  path: '/api/projects/:id/samples/',
  operationId: 'postProjectsByIdSamples',
  summary: 'Add samples to a project (needs edit permission)',
  tags: ['projects'],
  params: IdParams,
  body: ProjectSamplesBody,
  response: { 200: Project },
});

export const deleteProjectsByIdSamplesBySampleId = op({
  method: 'DELETE',
  path: '/api/projects/:id/samples/:sample_id',
  operationId: 'deleteProjectsByIdSamplesBySampleId',
  summary: 'Remove a sample from a project (needs edit permission)',
  tags: ['projects'],
  params: ProjectSampleParams,
  response: { 200: Project },
});
