;;; eglot.el --- batch Emacs 28 + Debian's elpa-eglot as a user's editor in a project with turnlens installed
;; The configuration of docs/language-server.md (a turnlens-test-mode for test files, served by
;; `npx turnlens lsp --stdio`; the test checks the doc holds it), then a test file's diagnostics and
;; the misspelled-option quick fix applied. Run by test/package/package.test.ts: emacs --batch -Q -l eglot.el, env TURNLENS_FILE.
(setq package-directory-list '("/usr/share/emacs/site-lisp/elpa")) ; -Q skips Debian's site-lisp
(package-initialize)
(require 'eglot)

;; >>> docs/language-server.md, Emacs (eglot), with js-mode for typescript-ts-mode (Emacs 28 has none)
(define-derived-mode turnlens-test-mode js-mode "Turnlens test"
  "TypeScript test files, served by the project's own Turnlens language server.")
(add-to-list 'auto-mode-alist '("\\.\\(test\\|spec\\)\\.[cm]?[jt]sx?\\'" . turnlens-test-mode))
(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs '(turnlens-test-mode . ("npx" "turnlens" "lsp" "--stdio"))))
(add-hook 'turnlens-test-mode-hook #'eglot-ensure)
;; <<< docs

(defun out (fmt &rest args) (princ (concat (apply #'format fmt args) "\n")))
;; Waits on events; the bound only ends a hung check, so it is minutes on a loaded machine.
(defvar timeout (/ (string-to-number (or (getenv "TURNLENS_TIMEOUT_MS") "240000")) 1000.0))
(defun wait-until (pred)
  (let ((end (+ (float-time) timeout)) (restart (+ (float-time) 2)))
    (while (and (not (funcall pred)) (< (float-time) end))
      (accept-process-output nil 0.05)
      ;; batch Emacs runs no idle timers: restart flymake now and then so it takes eglot's latest report
      (when (> (float-time) restart) (flymake-start) (setq restart (+ (float-time) 2))))
    (funcall pred)))
(defun diagnostic-with (text)
  (seq-find (lambda (d) (string-match-p (regexp-quote text) (flymake-diagnostic-text d))) (flymake-diagnostics)))

(let ((file (getenv "TURNLENS_FILE")) (ok nil))
  (condition-case err
      (progn
        (find-file file)
        (unless (eq major-mode 'turnlens-test-mode) (error "%s opened in %s" file major-mode))
        (run-hooks 'post-command-hook)    ; eglot-ensure waits for a command, which batch never runs
        (unless (wait-until #'eglot-current-server) (error "server did not start"))
        (flymake-start)
        ;; the static diagnostic, and the one only a run in a worker gives
        (unless (wait-until (lambda () (and (diagnostic-with "unknown-option") (diagnostic-with "entry-never-reached"))))
          (error "no unknown-option and entry-never-reached diagnostics: %S" (mapcar #'flymake-diagnostic-text (flymake-diagnostics))))
        (dolist (d (sort (flymake-diagnostics) (lambda (a b) (< (flymake-diagnostic-beg a) (flymake-diagnostic-beg b)))))
          (out "DIAG line %d: %s" (line-number-at-pos (flymake-diagnostic-beg d))
               (replace-regexp-in-string "\n" " | " (flymake-diagnostic-text d))))
        (let* ((server (eglot-current-server))
               (d (diagnostic-with "unknown-option"))
               (lsp-diag (cdr (assoc 'eglot-lsp-diag (flymake-diagnostic-data d))))
               (actions (jsonrpc-request server :textDocument/codeAction
                          (list :textDocument (eglot--TextDocumentIdentifier)
                                :range (plist-get lsp-diag :range)
                                :context (list :diagnostics (vector lsp-diag) :only ["quickfix"]))))
               (rename nil))
          (mapc (lambda (a)
                  (out "ACTION %s" (plist-get a :title))
                  (when (and (not rename) (plist-get a :edit) (string-match-p "agents" (plist-get a :title))) (setq rename a)))
                actions)
          (unless rename (error "no quick fix renaming the option to agents"))
          (eglot--apply-workspace-edit (plist-get rename :edit))
          (save-excursion
            (goto-char (flymake-diagnostic-beg d))
            (out "AFTER FIX line %d: %s" (line-number-at-pos)
                 (string-trim (buffer-substring-no-properties (line-beginning-position) (line-end-position)))))
          ;; eglot sends the change after an idle pause, which batch Emacs never has: send it now
          (eglot--signal-textDocument/didChange)
          (unless (wait-until (lambda () (not (diagnostic-with "unknown-option")))) (error "unknown-option still reported after the fix"))
          (out "AFTER FIX unknown-option gone")
          (setq ok t)))
    (error (out "RESULT: FAIL %S" err)))
  (when ok (out "RESULT: OK"))
  (ignore-errors (eglot-shutdown (eglot-current-server)))
  (kill-emacs (if ok 0 1)))
