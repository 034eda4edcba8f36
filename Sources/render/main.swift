import Foundation
import RenderCommand

exit(RenderCommand.main())
