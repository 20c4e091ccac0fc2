"""Grade bots on an exported CMS task with CMS's own code, run by CMS's Python: its Italian
YAML loader reads the task (as cmsImportTask does, without the statement), its Communication
task type compiles each bot and evaluates it on each testcase in isolate sandboxes. No
database and no services: the files are kept in a folder (FileCacher's file system backend).

    CMS_CONFIG=cms.toml python cms_evaluate.py TASK OUT.json LANGUAGE:FILE...

OUT.json: the task's type and score parameters, and by bot its compilation and each
testcase's input, outcome and text.
"""

import json
import sys
import tempfile
from pathlib import Path

from cms.db import File
from cms.db.filecacher import FileCacher
from cms.grading.Job import CompilationJob, EvaluationJob
from cms.grading.tasktypes import get_task_type
from cmscontrib.loaders.italy_yaml import YamlLoader

task_dir, out = Path(sys.argv[1]), Path(sys.argv[2])
cacher = FileCacher(path=tempfile.mkdtemp(prefix="cms-files-"))
task = YamlLoader(str(task_dir), cacher).get_task(get_statement=False)
dataset = task.active_dataset
task_type = get_task_type(dataset.task_type, dataset.task_type_parameters)
codename = task.submission_format[0]
report = {"task_type": dataset.task_type, "parameters": dataset.task_type_parameters,
          "score_type": dataset.score_type, "score_parameters": dataset.score_type_parameters,
          "bots": {}}
for bot in sys.argv[3:]:
    language, path = bot.split(":", 1)
    files = {codename: File(codename, cacher.put_file_from_path(path, "bot"))}
    how = {"task_type": dataset.task_type, "language": language, "files": files,
           "task_type_parameters": dataset.task_type_parameters,
           "managers": dict(dataset.managers)}
    compiled = CompilationJob(info=path, **how)
    task_type.compile(compiled, cacher)
    row = {"compiled": bool(compiled.success and compiled.compilation_success), "cases": {}}
    for name, testcase in sorted(dataset.testcases.items()) if row["compiled"] else ():
        job = EvaluationJob(info=name, executables=dict(compiled.executables),
                            input=testcase.input, output=testcase.output,
                            time_limit=dataset.time_limit, memory_limit=dataset.memory_limit,
                            **how)
        task_type.evaluate(job, cacher)
        row["cases"][name] = {"success": job.success, "outcome": job.outcome,
                              "text": job.text,
                              "input": cacher.get_file_content(testcase.input).decode()}
    report["bots"][path] = row
out.write_text(json.dumps(report, indent=1, default=str))
