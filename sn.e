boardgen serve: warning: watching /tmp/h30/srvn failed (Permission denied (os error 13) about ["/tmp/h30/srvn/sub"]); polling instead
boardgen serve: warning: watching /tmp/h30/srvn failed (error in underlying watcher: IO error for operation on /tmp/h30/srvn/sub: Permission denied (os error 13) about ["/tmp/h30/srvn/sub"]); changes will not be announced
boardgen: terminated
