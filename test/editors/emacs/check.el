;;; check.el --- Emacs 28 + eglot 1.9 (batch) against dist/server.js: the hover eglot shows on an entry.
;; Run by check.mjs (env TURNLENS_SERVER, TURNLENS_NODE, TURNLENS_FILE, TURNLENS_TIMEOUT_S). Prints
;; CAPS/HOVER/FIRST/MARKS/RESULT lines; exit 0 when a hover came back.
(setq package-directory-list '("/usr/share/emacs/site-lisp/elpa")) ; -Q skips Debian's site-lisp
(package-initialize)
(require 'eglot)
(defun out (fmt &rest args) (princ (concat (apply #'format fmt args) "\n")))
(defun wait-until (pred secs)
  (let ((end (+ (float-time) secs)))
    (while (and (not (funcall pred)) (< (float-time) end)) (accept-process-output nil 0.1))
    (funcall pred)))
;; emacs-nox ships no TypeScript mode; eglot names the language after the mode: "typescript".
(define-derived-mode typescript-mode prog-mode "TypeScript")
(let ((timeout (string-to-number (or (getenv "TURNLENS_TIMEOUT_S") "120")))
      (ok nil))
  (condition-case err
      (progn
        (find-file (getenv "TURNLENS_FILE"))
        (typescript-mode)
        (setq eglot-server-programs
              (list (list 'typescript-mode (getenv "TURNLENS_NODE") (getenv "TURNLENS_SERVER") "--stdio")))
        (eglot-ensure)
        (run-hooks 'post-command-hook) ; eglot-ensure waits for it, which batch never runs
        (unless (wait-until #'eglot-current-server 20) (error "server did not start"))
        (out "CAPS hover contentFormat %S" (if (fboundp 'gfm-view-mode) ["markdown" "plaintext"] ["plaintext"]))
        (goto-char (point-min))
        (search-forward "planner: answer(WORK, planned)")
        (search-backward "answer(")
        (forward-char 2)
        (let* ((server (eglot-current-server))
               (hover nil))
          ;; The run ends in the background: ask until a Turnlens hover comes back.
          (wait-until
           (lambda ()
             (let ((answer (jsonrpc-request server :textDocument/hover (eglot--TextDocumentPositionParams))))
               (when (and answer (string-prefix-p "Turnlens" (plist-get (plist-get answer :contents) :value)))
                 (setq hover answer)))
             (or hover (progn (accept-process-output nil 0.5) nil)))
           timeout)
          (unless hover (error "no Turnlens hover"))
          (let* ((contents (plist-get hover :contents))
                 (shown (eglot--hover-info contents)))
            (out "KIND %s" (plist-get contents :kind))
            (out "FIRST %s" (car (split-string shown "\n")))
            (out "MARKS %s" (if (string-match-p "\\*\\*\\|`\\|^> \\|^---" shown) "yes" "none"))
            (dolist (line (split-string shown "\n")) (out "HOVER | %s" line))
            (setq ok t))))
    (error (out "RESULT: FAIL %S" err)))
  (when ok (out "RESULT: OK"))
  (ignore-errors (eglot-shutdown (eglot-current-server)))
  (kill-emacs (if ok 0 1)))
