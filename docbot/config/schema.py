"""The JSON schema of the settings as data, importable without pydantic (generated; do not edit by hand).

The same schema as ``docbot.config.settings.settings_schema()`` and docbot.schema.json (tests/config/
test_plain_settings.py holds them equal): ``docbot.config.plain`` validates a check's, a screen's or a
scan's settings by it, so those paths never import pydantic (docs/design.md#lazy-imports). After changing
``Settings``, regenerate it: ``python -m docbot.config.schema_gen``.
"""

from __future__ import annotations

from typing import Any

SCHEMA: dict[str, Any] = {
    '$defs': {
        'RoleModel': {
            'additionalProperties': False,
            'description': ('Which model plays a role, and optionally on which backend/server (else the global ones)'
                '.'),
            'properties': {
                'model': {'minLength': 1, 'title': 'Model', 'type': 'string'},
                'backend': {
                    'anyOf': [
                        {'enum': ['ollama', 'openai', 'embedded', 'replay'], 'type': 'string'},
                        {'type': 'null'},
                    ],
                    'default': None,
                    'title': 'Backend',
                },
                'base_url': {
                    'anyOf': [
                        {'type': 'string'},
                        {'items': {'type': 'string'}, 'minItems': 1, 'type': 'array'},
                        {'type': 'null'},
                    ],
                    'default': None,
                    'title': 'Base Url',
                },
                'num_ctx': {
                    'anyOf': [{'maximum': 1048576, 'minimum': 512, 'type': 'integer'}, {'type': 'null'}],
                    'default': None,
                    'title': 'Num Ctx',
                },
                'max_tokens': {
                    'anyOf': [{'maximum': 131072, 'minimum': 16, 'type': 'integer'}, {'type': 'null'}],
                    'default': None,
                    'title': 'Max Tokens',
                },
            },
            'required': ['model'],
            'title': 'RoleModel',
            'type': 'object',
        },
    },
    'additionalProperties': False,
    'description': "Everything a run needs to know. Seed-compatible keys first, docbot's own after.",
    'properties': {
        'model_registry': {
            'additionalProperties': {'anyOf': [{'type': 'string', 'minLength': 1}, {'$ref': '#/$defs/RoleModel'}]},
            'title': 'Model Registry',
            'type': 'object',
            'propertyNames': {'enum': ['GENERATOR', 'CRITIC', 'ADJUDICATOR']},
        },
        'quality_score_bar': {
            'default': 95,
            'maximum': 100,
            'minimum': 0,
            'title': 'Quality Score Bar',
            'type': 'integer',
        },
        'max_attempts': {'default': 4, 'maximum': 20, 'minimum': 1, 'title': 'Max Attempts', 'type': 'integer'},
        'stop_on_regression': {'default': True, 'title': 'Stop On Regression', 'type': 'boolean'},
        'parse_attempts': {'default': 3, 'maximum': 10, 'minimum': 1, 'title': 'Parse Attempts', 'type': 'integer'},
        'adjudicate': {
            'default': 'when_needed',
            'enum': ['always', 'when_needed'],
            'title': 'Adjudicate',
            'type': 'string',
        },
        'temperatures': {'additionalProperties': {'type': 'number'}, 'title': 'Temperatures', 'type': 'object'},
        'backend': {
            'default': 'ollama',
            'enum': ['ollama', 'openai', 'embedded', 'replay'],
            'title': 'Backend',
            'type': 'string',
        },
        'base_url': {
            'anyOf': [
                {'type': 'string'},
                {'items': {'type': 'string'}, 'minItems': 1, 'type': 'array'},
                {'type': 'null'},
            ],
            'default': None,
            'title': 'Base Url',
        },
        'api_key': {'anyOf': [{'type': 'string'}, {'type': 'null'}], 'default': None, 'title': 'Api Key'},
        'num_ctx': {'default': 8192, 'maximum': 1048576, 'minimum': 512, 'title': 'Num Ctx', 'type': 'integer'},
        'max_tokens': {'default': 1024, 'maximum': 131072, 'minimum': 16, 'title': 'Max Tokens', 'type': 'integer'},
        'doc_bounds': {
            'default': 'auto',
            'enum': ['auto', 'small', 'large'],
            'title': 'Doc Bounds',
            'type': 'string',
        },
        'max_examples': {'default': 3, 'maximum': 20, 'minimum': 0, 'title': 'Max Examples', 'type': 'integer'},
        'chars_per_token': {
            'default': 2.5,
            'maximum': 10.0,
            'minimum': 0.5,
            'title': 'Chars Per Token',
            'type': 'number',
        },
        'keep_alive': {'default': '15m', 'title': 'Keep Alive', 'type': 'string'},
        'seed': {'default': 42, 'maximum': 2147483647, 'minimum': 0, 'title': 'Seed', 'type': 'integer'},
        'reasoning': {'default': False, 'title': 'Reasoning', 'type': 'boolean'},
        'request_timeout_s': {
            'default': 300.0,
            'exclusiveMinimum': 0,
            'maximum': 3600,
            'title': 'Request Timeout S',
            'type': 'number',
        },
        'connect_timeout_s': {
            'default': 5.0,
            'exclusiveMinimum': 0,
            'maximum': 300,
            'title': 'Connect Timeout S',
            'type': 'number',
        },
        'call_retries': {'default': 2, 'maximum': 10, 'minimum': 0, 'title': 'Call Retries', 'type': 'integer'},
        'embedded_model_path': {
            'anyOf': [{'type': 'string'}, {'type': 'null'}],
            'default': None,
            'title': 'Embedded Model Path',
        },
        'embedded_extra_buffers': {'default': False, 'title': 'Embedded Extra Buffers', 'type': 'boolean'},
        'record': {'anyOf': [{'type': 'string'}, {'type': 'null'}], 'default': None, 'title': 'Record'},
        'replay': {'anyOf': [{'type': 'string'}, {'type': 'null'}], 'default': None, 'title': 'Replay'},
        'run_examples': {
            'anyOf': [{'type': 'boolean'}, {'const': 'auto', 'type': 'string'}],
            'default': 'auto',
            'title': 'Run Examples',
        },
        'example_timeout_s': {
            'default': 10.0,
            'exclusiveMinimum': 0,
            'maximum': 600,
            'title': 'Example Timeout S',
            'type': 'number',
        },
        'example_memory_mb': {
            'default': 512,
            'maximum': 65536,
            'minimum': 64,
            'title': 'Example Memory Mb',
            'type': 'integer',
        },
        'example_sandbox': {
            'default': 'os',
            'enum': ['os', 'allow-guard', 'allow-guard-in-ci'],
            'title': 'Example Sandbox',
            'type': 'string',
        },
        'docs_globs': {'items': {'type': 'string'}, 'title': 'Docs Globs', 'type': 'array'},
        'docs_setup': {'additionalProperties': {'type': 'string'}, 'title': 'Docs Setup', 'type': 'object'},
        'drift_gate': {'default': True, 'title': 'Drift Gate', 'type': 'boolean'},
        'docs_dir': {'default': 'docs/api', 'title': 'Docs Dir', 'type': 'string'},
        'repo_url': {'anyOf': [{'type': 'string'}, {'type': 'null'}], 'default': None, 'title': 'Repo Url'},
        'include_dunder': {'default': False, 'title': 'Include Dunder', 'type': 'boolean'},
        'exclude': {'items': {'type': 'string'}, 'title': 'Exclude', 'type': 'array'},
        'scan_outside_package': {'default': False, 'title': 'Scan Outside Package', 'type': 'boolean'},
        'time_budget_s': {
            'anyOf': [{'exclusiveMinimum': 0, 'maximum': 604800, 'type': 'number'}, {'type': 'null'}],
            'default': None,
            'title': 'Time Budget S',
        },
        'when_no_server': {'default': 'fail', 'enum': ['fail', 'skip'], 'title': 'When No Server', 'type': 'string'},
        'write_docstrings': {'default': False, 'title': 'Write Docstrings', 'type': 'boolean'},
        'docstring_style': {
            'default': 'auto',
            'enum': ['auto', 'google', 'numpy', 'sphinx'],
            'title': 'Docstring Style',
            'type': 'string',
        },
        'max_docstring_chars': {
            'default': 8000,
            'maximum': 200000,
            'minimum': 200,
            'title': 'Max Docstring Chars',
            'type': 'integer',
        },
        'jobs': {'default': 1, 'maximum': 64, 'minimum': 1, 'title': 'Jobs', 'type': 'integer'},
        'jobs_per_server': {
            'default': 4,
            'maximum': 64,
            'minimum': 1,
            'title': 'Jobs Per Server',
            'type': 'integer',
        },
        'cache': {'default': True, 'title': 'Cache', 'type': 'boolean'},
        '$schema': {'type': 'string', 'description': 'where an editor finds this schema'},
    },
    'title': 'docbot configuration',
    'type': 'object',
    '$schema': 'https://json-schema.org/draft/2020-12/schema',
}

FIELDS: tuple[str, ...] = tuple(key for key in SCHEMA["properties"] if key != "$schema")  # the settings, in order

